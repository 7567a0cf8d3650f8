import Testing

@testable import TouchdInput

/// Issue #43: a position axis of `maximum - minimum + 1` units covers the screen in as many equal
/// cells (libinput's `scale_axis`), each unit at its cell's centre (``AbsInfo/fraction(of:)``), and
/// ``AbsInfo/units(atFraction:)`` gives the unit back.
@Suite("Axis scale")
struct AxisScaleTests {
  @Test("every unit of an 8-unit axis is its cell's centre, inside the screen, and comes back from its fraction")
  func smallAxisRoundTrip() {
    let axis = AbsInfo(minimum: 0, maximum: 7)
    for unit in Int32(0)...7 {
      let fraction = axis.fraction(of: unit)
      #expect(fraction == (Double(unit) + 0.5) / 8)
      #expect(fraction > 0 && fraction < 1)
      #expect(axis.units(atFraction: fraction) == unit)
      // Anywhere in the unit's cell (libinput's [unit, unit + 1) of 8) is that unit.
      #expect(axis.units(atFraction: Double(unit) / 8) == unit)
      #expect(axis.units(atFraction: (Double(unit) + 0.999) / 8) == unit)
    }
    // The last unit, the panel's last row or column, is inside the screen: 7.5 of 8, not 8 of 8.
    #expect(axis.fraction(of: 7) == 0.9375)
  }

  @Test("an axis with a negative minimum: every unit round-trips, the ends are half a unit in, mirrored")
  func negativeMinimum() {
    let axis = AbsInfo(minimum: -5, maximum: 4)
    for unit in Int32(-5)...4 {
      let fraction = axis.fraction(of: unit)
      #expect(fraction == (Double(unit) + 5.5) / 10)
      #expect(axis.units(atFraction: fraction) == unit)
      // A rotation mirrors the axis (1 - x): the centre of a unit's cell mirrors onto the centre
      // of the cell as far from the other end.
      #expect(axis.units(atFraction: 1 - fraction) == 4 - (unit + 5))
    }
    #expect(axis.fraction(of: -5) == 0.05)
    #expect(axis.fraction(of: 4) == 0.95)
  }

  @Test("values beyond the axis are the edge units; fractions beyond 0...1 are the edge units")
  func clamping() {
    let axis = AbsInfo(minimum: -5, maximum: 4)
    #expect(axis.fraction(of: -6) == axis.fraction(of: -5))
    #expect(axis.fraction(of: .min) == axis.fraction(of: -5))
    #expect(axis.fraction(of: 5) == axis.fraction(of: 4))
    #expect(axis.fraction(of: .max) == axis.fraction(of: 4))
    #expect(axis.units(atFraction: 0) == -5)
    #expect(axis.units(atFraction: -0.5) == -5)
    #expect(axis.units(atFraction: 1) == 4)
    #expect(axis.units(atFraction: 1.5) == 4)
    #expect(axis.units(atFraction: .infinity) == 4)
    #expect(axis.units(atFraction: -.infinity) == -5)
  }

  @Test("a 4096-unit axis over 1000 pt: each unit within half a unit (0.125 pt) of libinput's, the maximum inside")
  func libinputScale() {
    let axis = AbsInfo(minimum: 0, maximum: 4095)
    for unit in Int32(0)...4095 {
      let points = axis.fraction(of: unit) * 1000
      // libinput (evdev.c scale_axis): (value - minimum) * size / (maximum - minimum + 1).
      let libinput = Double(unit) * 1000 / 4096
      #expect(abs(points - libinput - 0.5 * 1000 / 4096) < 1e-9)
      #expect(points > 0 && points < 1000)
      #expect(axis.units(atFraction: points / 1000) == unit)
    }
  }
}
