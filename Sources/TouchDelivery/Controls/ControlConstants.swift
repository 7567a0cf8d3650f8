/// The geometry and timing of the built-in controls, each with its source: a UIKit header, Apple's
/// documentation, a measurement others published, or (where UIKit publishes nothing) the reasoning
/// behind touchd's choice. docs/delivery.md "Controls" lists them.
public enum ControlConstants {
  /// How far (pt) beyond its bounds a tracked touch still counts as inside a control
  /// (``Control/isTouchInside``: touchDragInside/Outside/Enter/Exit, touchUpInside/Outside and
  /// `highlighted`). UIKit publishes no value; it is about 70 pt, as measured by developers (Stack
  /// Overflow question 14340122, "UIControlEventTouchDragExit triggers when 100 pixels away from
  /// UIButton": the answer of 2015 measures "about 70 pixels" as "the default behavior of the
  /// UIControl", in points on a Retina device). touchd uses 70 pt on every side.
  public static let touchInsideTolerance: Double = 70

  /// The smallest touch target (pt) on either axis: Apple's Human Interface Guidelines, "a
  /// minimum tappable area of 44x44 pt for all controls". A slider's thumb and a switch are hit
  /// within at least this much around their drawn shape.
  public static let minimumHitSize: Double = 44

  /// The diameter (pt) of a slider's thumb, the knob that tracks the finger. UIKit publishes no
  /// value (`thumbRect(forBounds:trackRect:value:)` computes it); touchd's choice is 28 pt, the
  /// size of iOS's default thumb image as drawn since iOS 7. The thumb's centre travels from
  /// half a thumb inside the left edge to half a thumb inside the right edge.
  public static let sliderThumbDiameter: Double = 28

  /// How far (pt) the finger must move sideways on a switch before the knob follows it (a drag)
  /// instead of the lift toggling the switch (a tap). UIKit publishes none; touchd's choice is
  /// half the knob's travel on UIKit's 51x31 pt switch (UISwitch's documented size: "51 points
  /// wide and 31 points high" before iOS 26), (51 − 31) / 2 = 10 pt, the same as the pan's start
  /// distance.
  public static let switchDragThreshold: Double = 10

  /// How long (s) a stepper button must be held before it starts repeating (`autorepeat`). UIKit
  /// publishes no value; touchd's choice is 0.5 s, UIKit's notion of "held" (the long press's
  /// documented `minimumPressDuration`).
  public static let stepperAutorepeatDelay: Double = 0.5

  /// The interval (s) between repeats of a held stepper button. UIKit publishes no value;
  /// touchd's choice is 0.1 s, ten steps a second, slow enough to stop on a chosen value of a
  /// ticket count or volume and fast enough to cross 0...100 in ten seconds.
  public static let stepperAutorepeatInterval: Double = 0.1

  /// The diameter (pt) of a page control's indicator dots. Apple documents no geometry for
  /// UIPageControl; touchd's measurement of iOS's default indicators: 7 pt dots.
  public static let pageIndicatorDiameter: Double = 7

  /// The gap (pt) between neighbouring page indicators: touchd's measurement of iOS's default
  /// page control, 9 pt, so the dots' centres are 16 pt apart (``PageControl/indicatorPitch``).
  public static let pageIndicatorSpacing: Double = 9
}
