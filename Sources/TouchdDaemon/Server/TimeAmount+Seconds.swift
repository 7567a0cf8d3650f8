import NIOCore

/// Seconds as the options, `status` and the messages give them (`30`, `0.5`), and SwiftNIO's
/// `TimeAmount` that the server schedules with: the one conversion between them.
extension TimeAmount {
  /// `seconds`, to the nanosecond.
  init(seconds: Double) { self = .nanoseconds(Int64((seconds * 1e9).rounded())) }

  /// The amount in seconds.
  var seconds: Double { Double(nanoseconds) / 1e9 }
}
