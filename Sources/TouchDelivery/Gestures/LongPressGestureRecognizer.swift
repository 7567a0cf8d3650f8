/// Recognizes fingers held still for a while (UIKit's `UILongPressGestureRecognizer`); continuous.
///
/// # Lifecycle
/// With ``numberOfTapsRequired`` above 0, that many quick taps of ``numberOfTouchesRequired``
/// fingers come first (each as a ``TapGestureRecognizer`` tap). Then, once the required fingers
/// are all down, a timer of ``minimumPressDuration`` starts. Before it fires the gesture fails if
/// any finger moves more than ``allowableMovement`` from where it touched down, a finger lifts, a
/// finger too many touches down, or a touch is cancelled. When it fires the recognizer goes to
/// `.began` (inside the timer); from then every movement of any size is `.changed`, the lift of
/// one of its fingers is `.ended`, and a cancelled touch is `.cancelled`. Touches that land after
/// `.began` are ignored.
///
/// # Example: the five-finger, two-second kiosk admin press
/// (`numberOfTouchesRequired = 5`, `minimumPressDuration = 2`)
/// ```
/// t=0.00…0.12 fingers A-E down       possible (timer starts at E's touch-down, 0.12)
/// t=0.50      C moves 4 pt           possible (within 10 pt)
/// t=2.12      timer fires            began → action
/// t=2.40      B moves 30 pt          changed → action
/// t=3.00      A lifts                ended → action
/// ```
open class LongPressGestureRecognizer: GestureRecognizer {
  /// How long (s) the fingers must be held (UIKit default 0.5).
  public var minimumPressDuration = GestureConstants.longPressMinimumDuration
  /// How far (pt) a finger may move before the press begins (UIKit default 10).
  public var allowableMovement = GestureConstants.longPressAllowableMovement
  /// Fingers that must be held (UIKit default 1).
  public var numberOfTouchesRequired = 1
  /// Taps before the press (UIKit default 0).
  public var numberOfTapsRequired = 0
  /// How long (s) a preliminary tap's fingers may stay down.
  public var maximumTapDuration = GestureConstants.maximumTapDuration
  /// The longest gap (s) from a preliminary tap's lift to the next touch-down.
  public var maximumIntervalBetweenTaps = GestureConstants.multiTapMaximumInterval

  private var down = GestureTouches()
  private var fingersThisRound = 0
  private var tapsCompleted = 0
  private var pressTimer: ScheduledTimer?
  private var tapTimer: ScheduledTimer?
  private var intervalTimer: ScheduledTimer?
  private var lastLocation: Point?

  public override init() { super.init() }

  /// A recognizer for `touches` fingers held `duration` seconds.
  public convenience init(minimumPressDuration duration: Double, numberOfTouchesRequired touches: Int = 1) {
    self.init()
    minimumPressDuration = duration
    numberOfTouchesRequired = touches
  }

  private var isPressing: Bool { tapsCompleted >= numberOfTapsRequired }

  open override func touchesBegan(_ touches: Set<Touch>, with event: TouchEvent) {
    if isActive {
      for touch in touches { ignore(touch, for: event) }
      return
    }
    guard effectiveState == .possible else { return }
    intervalTimer?.cancel()
    intervalTimer = nil
    for touch in touches.sorted(by: { $0.id < $1.id }) {
      if down.isEmpty && fingersThisRound == 0 && !isPressing {
        tapTimer = schedule(after: maximumTapDuration) { [weak self] in
          guard let self else { return }
          self.fail(
            "a preliminary tap lasted more than maximumTapDuration \(traceNumber(self.maximumTapDuration, decimals: 3)) s"
          )
        }
      }
      down.add(touch)
      fingersThisRound += 1
      if fingersThisRound > numberOfTouchesRequired {
        return fail("\(fingersThisRound) fingers > numberOfTouchesRequired \(numberOfTouchesRequired)")
      }
    }
    if isPressing && down.count == numberOfTouchesRequired && pressTimer == nil {
      pressTimer = schedule(after: minimumPressDuration) { [weak self] in self?.pressTimerFired() }
    }
  }

  private func pressTimerFired() {
    pressTimer = nil
    guard effectiveState == .possible, down.count == numberOfTouchesRequired else { return }
    setState(.began, because: "held minimumPressDuration \(traceNumber(minimumPressDuration, decimals: 3)) s")
  }

  open override func touchesMoved(_ touches: Set<Touch>, with event: TouchEvent) {
    if isActive {
      state = .changed
      return
    }
    guard effectiveState == .possible else { return }
    for touch in touches where down.contains(touch) {
      let moved = down.distanceMoved(touch)
      if moved > allowableMovement {
        return fail("moved \(traceNumber(moved)) pt > allowableMovement \(traceNumber(allowableMovement))")
      }
    }
  }

  open override func touchesEnded(_ touches: Set<Touch>, with event: TouchEvent) {
    if isActive {
      lastLocation = down.centroid
      for touch in touches { down.remove(touch) }
      setState(.ended, because: "a finger lifted")
      return
    }
    guard effectiveState == .possible else { return }
    for touch in touches where down.contains(touch) {
      let moved = down.distanceMoved(touch)
      if moved > allowableMovement {
        return fail("moved \(traceNumber(moved)) pt > allowableMovement \(traceNumber(allowableMovement))")
      }
    }
    // Lifting during the press, before the timer, fails it.
    if isPressing {
      return fail("lifted before minimumPressDuration \(traceNumber(minimumPressDuration, decimals: 3)) s")
    }
    for touch in touches { down.remove(touch) }
    guard down.isEmpty else { return }
    guard fingersThisRound == numberOfTouchesRequired else {
      return fail(
        "a preliminary tap had \(fingersThisRound) of numberOfTouchesRequired \(numberOfTouchesRequired) fingers")
    }
    tapTimer?.cancel()
    tapTimer = nil
    fingersThisRound = 0
    tapsCompleted += 1
    intervalTimer = schedule(after: maximumIntervalBetweenTaps) { [weak self] in
      guard let self else { return }
      self.fail(
        "no touch-down within maximumIntervalBetweenTaps \(traceNumber(self.maximumIntervalBetweenTaps, decimals: 3)) s"
      )
    }
  }

  open override func touchesCancelled(_ touches: Set<Touch>, with event: TouchEvent) {
    lastLocation = down.centroid ?? lastLocation
    for touch in touches { down.remove(touch) }
    if isActive {
      state = .cancelled
    } else if effectiveState == .possible {
      fail("a touch was cancelled")
    }
  }

  // MARK: Presses (``allowedPressTypes``)

  /// Keys follow the touches' rules, a key standing for the fingers: ``numberOfTapsRequired``
  /// quick key taps come first (each key-up within ``maximumTapDuration`` of its key-down, the next
  /// key-down within ``maximumIntervalBetweenTaps`` of the key-up), then a key held
  /// ``minimumPressDuration`` begins the gesture; its key-up ends it (before: fails), a cancelled
  /// press cancels it (before: fails). UIKit documents `numberOfTapsRequired` and
  /// `minimumPressDuration` on UILongPressGestureRecognizer without restricting them to touches,
  /// and tvOS's press recognizers (`allowedPressTypes`, UIGestureRecognizer.h) count taps of the
  /// remote's buttons the same way. Keys have no movement: ``allowableMovement`` applies to touches
  /// only. A second key down at once before the gesture begins fails it; after, it is ignored.
  open override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent) {
    guard !isActive, effectiveState == .possible else { return }
    guard trackedPresses.count == 1, down.isEmpty else {
      return fail("\(trackedPresses.count) keys down at once")
    }
    intervalTimer?.cancel()
    intervalTimer = nil
    guard isPressing else {
      tapTimer = schedule(after: maximumTapDuration) { [weak self] in
        guard let self else { return }
        self.fail(
          "a preliminary key tap lasted more than maximumTapDuration \(traceNumber(self.maximumTapDuration, decimals: 3)) s"
        )
      }
      return
    }
    pressTimer = schedule(after: minimumPressDuration) { [weak self] in
      guard let self else { return }
      self.pressTimer = nil
      guard self.effectiveState == .possible, !self.trackedPresses.isEmpty else { return }
      self.setState(
        .began, because: "key held minimumPressDuration \(traceNumber(self.minimumPressDuration, decimals: 3)) s")
    }
  }

  open override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent) {
    if isActive {
      // Only the key that began the gesture ends it.
      guard let first = trackedPresses.first, presses.contains(first) else { return }
      setState(.ended, because: "the key went up")
    } else if effectiveState == .possible {
      guard !isPressing else {
        return fail("the key went up before minimumPressDuration \(traceNumber(minimumPressDuration, decimals: 3)) s")
      }
      tapTimer?.cancel()
      tapTimer = nil
      tapsCompleted += 1
      intervalTimer = schedule(after: maximumIntervalBetweenTaps) { [weak self] in
        guard let self else { return }
        self.fail(
          "no key down within maximumIntervalBetweenTaps \(traceNumber(self.maximumIntervalBetweenTaps, decimals: 3)) s"
        )
      }
    }
  }

  open override func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent) {
    if isActive {
      guard let first = trackedPresses.first, presses.contains(first) else { return }
      state = .cancelled
    } else if effectiveState == .possible {
      fail("a press was cancelled")
    }
  }

  /// The centroid of the held fingers; after the lift, where they were.
  open override func location(in view: View?) -> Point {
    guard let p = down.centroid ?? lastLocation else { return super.location(in: view) }
    return view?.convert(p, from: nil) ?? p
  }

  open override func reset() {
    super.reset()
    for timer in [pressTimer, tapTimer, intervalTimer] { timer?.cancel() }
    pressTimer = nil
    tapTimer = nil
    intervalTimer = nil
    down.removeAll()
    fingersThisRound = 0
    tapsCompleted = 0
    lastLocation = nil
  }

  private func fail(_ cause: @autoclosure () -> String) {
    for timer in [pressTimer, tapTimer, intervalTimer] { timer?.cancel() }
    pressTimer = nil
    if effectiveState == .possible { setState(.failed, because: cause()) }
  }
}
