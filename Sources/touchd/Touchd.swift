import ArgumentParser
import TouchdDevices
import TouchdScene

@main
struct Touchd: ParsableCommand {
  static let configuration = CommandConfiguration(abstract: "The touchd daemon.")
  func run() throws {}
}
