import TouchDelivery
import TouchdInput

/// The scene's idle state (`idle: {after: SECONDS, wake: deliver | swallow}`): publishes `idle`
/// once no touch or press has arrived for `after` seconds while none is held down, and `active`
/// at the next touch or press. With `wake: swallow` the input that ends the idle state only wakes:
/// its contacts and keys are kept from the views from their beginning to their end, so the first
/// tap on a blank screen does not press the button under it.
///
/// One timer, armed only while active: it is set for `after` seconds past the start or the input
/// that found it unarmed, and when it fires before the real deadline (input came meanwhile) it is
/// set again for that deadline. So a steady stream of input costs one wake-up per `after` seconds,
/// not one timer per frame, and an idle daemon has no timer at all.
///
/// Live and replay run this on the runtime's clock; replay's clock starts at the recording's first
/// event, as a daemon started just before it.
final class IdleMonitor {
  let after: Double
  let wake: Scene.Idle.Wake
  private let clock: TouchClock
  /// Whether a delivered touch or press is down (the application's); the timer does not declare
  /// idle while one is.
  private let isInputDown: () -> Bool
  /// Publishes the change: idle (true) or active, its time, and whether the waking input was
  /// swallowed.
  private let publish: (_ idle: Bool, _ time: Double, _ swallowed: Bool) -> Void

  private(set) var isIdle = false
  /// The time of the last touch or press, nil before the first.
  private(set) var lastInput: Double?
  /// When the monitor started: the time without input counts from there until the first input.
  private let activeSince: Double
  private var timer: ScheduledTimer?
  private var isStopped = false
  /// Contacts and keys of a swallowed wake, until they end.
  private var swallowedContacts: Set<TouchID> = []
  private var swallowedKeys: Set<PressSource> = []

  init(
    _ spec: Scene.Idle, clock: TouchClock, isInputDown: @escaping () -> Bool,
    publish: @escaping (_ idle: Bool, _ time: Double, _ swallowed: Bool) -> Void
  ) {
    after = spec.after
    wake = spec.wake
    self.clock = clock
    self.isInputDown = isInputDown
    self.publish = publish
    activeSince = clock.now
    arm(at: clock.now + after)
  }

  /// Takes over the state of the monitor of the runtime this one replaces (a scene reload): idle
  /// stays idle without a new message, and the time without input keeps counting.
  func continueFrom(isIdle: Bool, lastInput: Double?) {
    self.lastInput = lastInput
    self.isIdle = isIdle
    timer?.cancel()
    timer = nil
    if !isIdle { arm(at: (lastInput ?? activeSince) + after) }
  }

  /// Cancels the timer: the monitor publishes nothing more (its runtime was replaced).
  func stop() {
    timer?.cancel()
    timer = nil
    isStopped = true
  }

  /// A touch frame arrived at `time`: notes it as input, wakes if idle, and returns the frame
  /// without the contacts of a swallowed wake (nil when none is left to deliver).
  func filter(_ frame: TouchFrame) -> TouchFrame? {
    guard !frame.contacts.isEmpty else { return frame }
    let swallow = noteInput(at: frame.time.seconds)
    if swallow {
      for contact in frame.contacts where !contact.phase.isTerminal { swallowedContacts.insert(contact.id) }
      return nil
    }
    guard !swallowedContacts.isEmpty else { return frame }
    var kept = frame
    kept.contacts.removeAll { contact in
      guard swallowedContacts.contains(contact.id) else { return false }
      if contact.phase.isTerminal { swallowedContacts.remove(contact.id) }
      return true
    }
    return kept.contacts.isEmpty ? nil : kept
  }

  /// Key changes that make presses arrived at `time`: as ``filter(_:)`` for keys.
  func filter(_ changes: [PressChange], at time: Double) -> [PressChange] {
    guard !changes.isEmpty else { return changes }
    if noteInput(at: time) {
      for change in changes where change.phase == .down {
        swallowedKeys.insert(change.source)
      }
      return []
    }
    guard !swallowedKeys.isEmpty else { return changes }
    return changes.filter { change in
      let key = change.source
      guard swallowedKeys.contains(key) else { return true }
      if change.phase != .down { swallowedKeys.remove(key) }
      return false
    }
  }

  /// Records input at `time`; wakes when idle. Returns whether this input is swallowed.
  private func noteInput(at time: Double) -> Bool {
    lastInput = time
    guard isIdle else {
      if timer == nil { arm(at: time + after) }
      return false
    }
    isIdle = false
    let swallow = wake == .swallow
    publish(false, time, swallow)
    arm(at: time + after)
    return swallow
  }

  private func arm(at deadline: Double) {
    guard !isStopped else { return }
    timer = clock.schedule(at: deadline) { [weak self] in self?.fire(deadline) }
  }

  private func fire(_ deadline: Double) {
    timer = nil
    guard !isIdle else { return }
    let due = (lastInput ?? activeSince) + after
    if due > deadline {
      arm(at: due)
      return
    }
    // A finger resting on the screen is use: the timer waits for its end, which is input again.
    guard !isInputDown(), swallowedContacts.isEmpty, swallowedKeys.isEmpty else { return }
    isIdle = true
    publish(true, deadline, false)
  }
}
