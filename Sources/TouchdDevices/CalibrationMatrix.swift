/// Parses udev's `LIBINPUT_CALIBRATION_MATRIX` property: six numbers, the first two rows of the 3x3
/// matrix libinput applies to normalized coordinates (`"1 0 0 0 1 0"` is the identity).
///
/// As libinput does, anything but exactly six finite numbers separated by whitespace is rejected
/// (nil), so a broken hwdb entry leaves the device uncalibrated rather than misplaced.
public func parseCalibrationMatrix(_ property: String) -> [Double]? {
  let fields = property.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
  guard fields.count == 6 else { return nil }
  var values: [Double] = []
  for field in fields {
    guard let value = Double(field), value.isFinite else { return nil }
    values.append(value)
  }
  return values
}
