import Foundation
import Testing
import TouchdTestKit

#if canImport(Glibc)
  import Glibc
#endif

/// VoiceOver's speech through a real speech-dispatcher (issue #40): what touchd says arrives over
/// SSIP in order, each focus change cancelling the utterance before it and an announcement queued
/// after; with speech-dispatcher stopped touchd goes on publishing, logs its absence once, and
/// speaks again once it is back.
@Suite(.serialized)
struct SpeechDispatcherTests {
  static func scene(socket: String) -> String {
    """
    version: 1
    windows:
      - id: main
        size: {width: 1000, height: 800}
        voiceOver: true
        speech: {socket: "\(socket)", rate: 20}
        views:
          - {id: one, frame: {x: 0, y: 100, width: 300, height: 100}, control: {type: button}, accessibility: {label: First}}
          - {id: two, frame: {x: 350, y: 100, width: 300, height: 100}, control: {type: button}, accessibility: {label: Second, hint: Goes on.}}
          - {id: three, frame: {x: 700, y: 100, width: 300, height: 100}, control: {type: button}, accessibility: {label: Third}}
    """
  }

  @Test func utterancesArriveInOrderInterruptedAsSSIPSaysAndSpeechComesBack() throws {
    let dir = scratchDirectory()
    let speechd = try SpeechDispatcherProcess(directory: dir)
    try speechd.start()
    let scenePath = dir.appendingPathComponent("speech.yaml").path
    try Self.scene(socket: speechd.socket).write(toFile: scenePath, atomically: true, encoding: .utf8)
    // One finger explores across the three buttons, 2 s after the daemon starts.
    let script = FingerScript(windowWidth: 1000, windowHeight: 800, start: 0.2)
    script.drag(from: .init(x: 150, y: 150), to: .init(x: 850, y: 150), duration: 1.5)
    script.wait(0.5)
    let recording = try writeRecording(script, to: dir)
    let daemon = try DaemonProcess(
      scene: scenePath, directory: dir, arguments: ["--replay", recording, "--replay-delay", "2"])
    let (client, _) = try daemon.connect()
    _ = client.command(#"{"cmd":"subscribe","id":1,"types":["accessibility"]}"#, id: 1)
    var focused: [String] = []
    while focused.count < 3, let line = client.readLine(timeout: 15), let m = json(line) {
      if m["event"] as? String == "focus" { focused.append(m["view"] as? String ?? "") }
    }
    #expect(focused == ["one", "two", "three"])
    let announced = client.command(#"{"cmd":"announce","id":2,"text":"Your ticket is printing"}"#, id: 2)
    #expect(announced.reply?["spoken"] as? Bool == true, "\(announced)")
    #expect(speechd.waitForLine("Your ticket is printing"), "\(speechd.received)\n\(daemon.log)")
    // The connection's settings first (SSIP keeps none between connections); each focus cancels
    // what was being said and queued, then speaks; the hint follows as a message of its own; the
    // announcement is queued after, cancelling nothing.
    #expect(
      speechd.received == [
        "SET self CLIENT_NAME touchd:touchd:main", "SET self PRIORITY message", "SET self LANGUAGE en",
        "SET self RATE 20",
        "CANCEL self", "SPEAK", "First, button.", ".",
        "CANCEL self", "SPEAK", "Second, button.", ".", "SPEAK", "Goes on.", ".",
        "CANCEL self", "SPEAK", "Third, button.", ".",
        "SPEAK", "Your ticket is printing", ".",
      ], "\(daemon.log)")
    #expect(speechd.log.contains("Queueing message |Third, button.|"), "speech-dispatcher took the utterance")
    // The metrics: five utterances said (three focuses, a hint, the announcement), connected.
    let said = try #require(client.command(#"{"cmd":"metrics","id":3}"#, id: 3).reply?["text"] as? String)
    #expect(said.contains(#"touchd_speech_utterances_total{window="main",result="said"} 5"#), "\(said)")
    #expect(said.contains(#"touchd_speech_connected{window="main"} 1"#), "\(said)")

    // speech-dispatcher goes away: touchd publishes as before and says so once in its log.
    speechd.stop()
    for n in 0..<4 {
      let reply = client.command(#"{"cmd":"announce","id":\#(10 + n),"text":"While away"}"#, id: 10 + n)
      #expect(reply.reply?["spoken"] as? Bool == true, "\(reply)")
      let message =
        reply.others.compactMap(json).first { $0["event"] as? String == "announce" }
        ?? client.readLine(timeout: 5).flatMap(json)
      #expect(message?["spoken"] as? String == "While away", "\(String(describing: message))")
      usleep(400_000)
    }
    #expect(
      daemon.log.components(separatedBy: "speech-dispatcher is not there").count - 1 == 1,
      "logged once, however often it is tried:\n\(daemon.log)")
    let away = try #require(client.command(#"{"cmd":"metrics","id":20}"#, id: 20).reply?["text"] as? String)
    #expect(away.contains(#"touchd_speech_connected{window="main"} 0"#), "\(away)")
    #expect(away.contains(#"touchd_speech_utterances_total{window="main",result="dropped"} 4"#), "\(away)")

    // Back: touchd connects again within its backoff and speaks, its settings sent anew.
    try speechd.start()
    var back = false
    for n in 0..<30 where !back {
      _ = client.command(#"{"cmd":"announce","id":\#(100 + n),"text":"Back again"}"#, id: 100 + n)
      back = speechd.waitForLine("Back again", timeout: 0.5)
    }
    #expect(back, "\(daemon.log)")
    #expect(
      Array(speechd.received.prefix(4)) == [
        "SET self CLIENT_NAME touchd:touchd:main", "SET self PRIORITY message", "SET self LANGUAGE en",
        "SET self RATE 20",
      ])
    #expect(!speechd.received.contains("While away"), "what was said while it was away is not said late")
    #expect(daemon.log.contains("speech-dispatcher is back"), "\(daemon.log)")
    daemon.signal(SIGTERM)
    #expect(daemon.waitForExit() == 0)
  }
}
