import ArgumentParser
import TouchdInput

@main
struct Touchctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchctl", abstract: "Inspect touchscreens, replay recordings and talk to touchd.",
    version: "touchctl \(TouchdVersion.current)",
    subcommands: [
      DevicesCommand.self, RecordCommand.self, ReplayCommand.self, CheckCommand.self, RenderCommand.self,
      SubscribeCommand.self, SendCommand.self, StatusCommand.self, MetricsCommand.self, HealthCommand.self,
      CalibrateCommand.self,
    ])
}
