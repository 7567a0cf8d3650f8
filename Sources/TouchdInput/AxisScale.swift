// How a position axis's device units map to the unit interval and back: the one rule the
// pipeline, the forwarding encoder, its C shortcut and the test kit's synthetic devices share.

extension AbsInfo {
  /// The fraction of the axis (0 to 1, exclusive at both ends) where device unit `value` lies: the
  /// centre of the unit's cell, `(value - minimum + 1/2) / (maximum - minimum + 1)`, the value
  /// clamped into the axis first.
  ///
  /// An axis of `maximum - minimum + 1` units covers the screen in as many equal cells, as
  /// libinput scales it (evdev.c, `scale_axis`: `(value - absinfo->minimum) * to_range /
  /// (absinfo->maximum - absinfo->minimum + 1)`), so the last unit, the panel's last row or
  /// column, is inside the screen and hits the view at that edge. libinput takes the cell's left
  /// edge; touchd takes its centre (half a unit further, 0.12 pt on a 4096-unit axis over
  /// 1000 pt) because rotations mirror the axis (`1 - x`): a centre mirrors onto the centre of the
  /// opposite cell, while the minimum's left edge would mirror onto the far edge of the screen,
  /// outside every view. A value beyond the axis (firmware that overshoots its advertised range)
  /// is the edge cell's.
  @inline(__always)
  public static func fraction(_ value: Int32, minimum: Double, maximum: Double) -> Double {
    (Swift.min(Swift.max(Double(value), minimum), maximum) - minimum + 0.5) / (maximum - minimum + 1)
  }

  /// ``fraction(_:minimum:maximum:)`` on this axis.
  public func fraction(of value: Int32) -> Double {
    Self.fraction(value, minimum: Double(minimum), maximum: Double(maximum))
  }

  /// The device unit whose cell holds `fraction` of the axis (clamped to 0...1): the inverse of
  /// ``fraction(of:)``, which gives back the unit it was computed from. What the virtual
  /// touchscreen and the synthetic test devices write for a position.
  public func units(atFraction fraction: Double) -> Int32 {
    let count = Double(maximum) - Double(minimum) + 1
    let cell = (Swift.min(Swift.max(fraction, 0), 1) * count).rounded(.down)
    return Int32(Double(minimum) + Swift.min(Swift.max(cell, 0), count - 1))
  }
}
