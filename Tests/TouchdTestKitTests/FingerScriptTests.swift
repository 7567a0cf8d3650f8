import Testing
import TouchdInput
import TouchdTestKit

@Suite("Finger scripts")
struct FingerScriptTests {
  @Test("A tap is one protocol-B touch: down and up frames at the right place and time")
  func tapFrames() throws {
    let script = FingerScript(windowWidth: 1920, windowHeight: 1080, start: 2)
    script.tap(at: .init(x: 960, y: 270), duration: 0.05)
    let frames = Replay.frames(of: script.recording)
    #expect(frames.count == 2)
    let down = try #require(frames.first?.contacts.first)
    #expect(down.phase == .began)
    #expect(abs(down.x * 1920 - 960) < 0.5 && abs(down.y * 1080 - 270) < 0.5)
    #expect(frames[0].time == Timestamp(microseconds: 2_000_000))
    #expect(frames[1].contacts.first?.phase == .ended)
    #expect(frames[1].time == Timestamp(microseconds: 2_050_000))
    #expect(script.events.contains { $0.type == EV.key && $0.code == BTN.touch && $0.value == 1 })
    #expect(script.events.last?.type == EV.syn)
  }

  @Test("A drag is sampled at 120 Hz and ends where it was told to")
  func dragSampling() throws {
    let script = FingerScript(windowWidth: 1000, windowHeight: 1000, start: 0)
    script.drag(from: .init(x: 100, y: 100), to: .init(x: 500, y: 100), duration: 0.25)
    let frames = Replay.frames(of: script.recording)
    #expect(frames.count == 1 + 30 + 1)
    let last = try #require(frames.dropLast().last?.contacts.first)
    #expect(abs(last.x * 1000 - 500) < 0.5)
    #expect(abs(script.time - 0.25) < 1e-9)
  }

  @Test("Five fingers get five slots and tracking ids, BTN_TOUCH once")
  func multiFinger() {
    let script = FingerScript()
    script.longPress(at: .init(x: 960, y: 540), duration: 2, fingers: 5)
    let frames = Replay.frames(of: script.recording)
    #expect(frames.first?.contacts.count == 5)
    #expect(Set(frames.first?.contacts.map(\.id) ?? []).count == 5)
    #expect(frames.last?.contacts.allSatisfy { $0.phase == .ended } == true)
    #expect(script.events.filter { $0.code == BTN.touch && $0.type == EV.key }.count == 2)
  }

  @Test("The evemu text reads back as the same recording")
  func evemuRoundTrip() throws {
    let script = FingerScript()
    script.pinch(center: .init(x: 960, y: 540), fromDistance: 200, toDistance: 400, duration: 0.2)
    let parsed = try RecordingReader.parse(Array(script.evemuText.utf8), source: "script.evemu")
    #expect(parsed.events == script.events)
    #expect(parsed.description.name == SyntheticTouchscreen.name)
    #expect(parsed.description.has(property: InputProp.direct))
    #expect(Replay.frames(of: parsed) == Replay.frames(of: script.recording))
  }
}
