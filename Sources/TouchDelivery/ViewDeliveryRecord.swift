import TouchdCore

/// One touch of one view delivery as it was made: what the touch's hit-test view heard
/// (`touchesBegan`, `touchesMoved`, `touchesEnded`, `touchesCancelled`), when and where. Set
/// ``Application/viewDeliveryObserver`` to receive them; forwarding to a virtual touchscreen
/// (docs/forward.md) is built on them: the forwarded stream is what the views receive.
///
/// A delivery held by a recognizer (`delaysTouchesBegan`, `delaysTouchesEnded`) is reported when it
/// is made, with the location it was queued at (a released `began` is at the touch-down point, a
/// released `moved` at the latest one: held moves merge into one). A delivery dropped because a
/// recognizer recognized with `cancelsTouchesInView` is never reported; a view that had heard
/// `touchesBegan` is reported `cancelled`. One record per touch, in the order the views are called.
///
/// A touch that hits no view of its window (and begins while interaction is not ignored) reaches
/// nobody, so nothing holds or claims it: it is reported too, every change as it arrives, with
/// ``hitNothing`` set, as a view underneath every view would get it (the compositor, when
/// forwarding).
public struct ViewDeliveryRecord: Hashable, Sendable {
  /// The touch's contact id.
  public var id: TouchID
  /// The phase the view heard: began, moved, ended or cancelled.
  public var phase: TouchPhase
  /// The touch's location in window points as the view saw it.
  public var location: Point
  /// Whether the delivery was held back by a recognizer and released later.
  public var wasHeld: Bool
  /// The touch hit no view: no view heard it, the record says what one underneath would have.
  public var hitNothing: Bool
  /// Not a delivery: the delivery of `phase` was held back (reported once, when it starts to wait;
  /// a record with ``wasHeld`` follows if it is ever made).
  public var isHold: Bool
  /// Not a delivery: a recognition (`cancelsTouchesInView`) dropped the touch's held deliveries
  /// before its view heard `touchesBegan`, so the view never hears of it (`phase` is `cancelled`).
  public var isDrop: Bool

  public init(
    id: TouchID, phase: TouchPhase, location: Point, wasHeld: Bool, hitNothing: Bool = false, isHold: Bool = false,
    isDrop: Bool = false
  ) {
    self.id = id
    self.phase = phase
    self.location = location
    self.wasHeld = wasHeld
    self.hitNothing = hitNothing
    self.isHold = isHold
    self.isDrop = isDrop
  }
}
