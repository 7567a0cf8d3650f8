import Testing

@testable import TouchdDevices

@Suite struct CalibrationTests {
  @Test func parsesSixNumbers() {
    #expect(parseCalibrationMatrix("1 0 0 0 1 0") == [1, 0, 0, 0, 1, 0])
    #expect(parseCalibrationMatrix("0 -1 1\t1 0 0") == [0, -1, 1, 1, 0, 0])
    #expect(parseCalibrationMatrix("  1.5 0 -0.25 0 1e-1 0 ") == [1.5, 0, -0.25, 0, 0.1, 0])
  }

  @Test func rejectsAnythingElse() {
    #expect(parseCalibrationMatrix("") == nil)
    #expect(parseCalibrationMatrix("1 0 0 0 1") == nil)
    #expect(parseCalibrationMatrix("1 0 0 0 1 0 0") == nil)
    #expect(parseCalibrationMatrix("1 0 0 0 1 x") == nil)
    #expect(parseCalibrationMatrix("1,0,0,0,1,0") == nil)
    #expect(parseCalibrationMatrix("1 0 0 0 1 nan") == nil)
    #expect(parseCalibrationMatrix("1 0 0 0 1 inf") == nil)
  }
}
