import ArgumentParser

@main
struct Touchctl: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "touchctl", abstract: "Inspect touchscreens, replay recordings and talk to touchd.",
    subcommands: [ReplayCommand.self, CheckCommand.self])
}
