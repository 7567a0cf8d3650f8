import Foundation
import Testing
import TouchdScene
import TouchdTestKit

/// The `scene` command through the socket (issue #18): a client's scene replaces the running one
/// at once, every client hears of it, the recorded taps then meet the new views; a bad scene is
/// refused with its problems placed by path, and the scene before it stays.
@Suite(.serialized)
struct ScenePushDaemonTests {
  /// One full-window view `pad` whose tap publishes `action`.
  static func padScene(action: String) -> String {
    #"{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"views":[{"id":"pad","#
      + #""frame":{"x":0,"y":0,"width":1920,"height":1080},"recognizers":[{"id":"pad-tap","type":"tap","action":""#
      + action + #""}]}]}]}"#
  }

  @Test(
    "A pushed scene is live for the next tap, an update adds a view; a bad scene is refused by path and the pushed one stays"
  )
  func pushThenTapThenRefuse() throws {
    let dir = scratchDirectory()
    let script = Kiosk.script()
    // The kiosk scene's buy-ticket button is here; the pushed scene has `pad` everywhere.
    script.wait(2)
    script.tap(at: Kiosk.buyTicket)
    script.wait(1.5)
    script.tap(at: Kiosk.help)
    // Kept running after the replay, for the status and reload at the end.
    let daemon = try DaemonProcess.replaying(script, in: dir, delay: 1, options: [])
    let (app, _) = try daemon.connect()
    let (watcher, _) = try daemon.connect()
    #expect(watcher.command(#"{"cmd":"subscribe","id":1,"types":["action"]}"#, id: 1).reply?["ok"] as? Bool == true)

    let pushed = app.command(#"{"cmd":"scene","id":2,"scene":"# + Self.padScene(action: "pad-one") + "}", id: 2)
    let reply = try #require(pushed.reply)
    #expect(reply["type"] as? String == "reply")
    #expect(reply["views"] as? Int == 1 && reply["recognizers"] as? Int == 1)
    #expect((reply["windows"] as? [[String: Any]])?.first?["width"] as? Int == 1920)
    let notice = watcher.readUntil(#""type":"reloaded""#, timeout: 5).match.flatMap(json)
    #expect(notice?["source"] as? String == "client")
    #expect(notice?["views"] as? Int == 1)
    // A client connecting now is greeted with the pushed scene's count.
    let (_, hello) = try daemon.connect()
    #expect(hello["views"] as? Int == 1)

    // The first tap lands on the pushed view.
    let first = watcher.readUntil(#""type":"action""#, timeout: 10).match.flatMap(json)
    #expect(first?["action"] as? String == "pad-one")
    #expect(first?["view"] as? String == "pad")

    // An update adds a view over the help button's place, in front of `pad`.
    let update = app.command(
      #"{"cmd":"update","id":7,"op":"add","parent":"main","view":{"id":"corner","#
        + #""frame":{"x":1400,"y":380,"width":240,"height":200},"#
        + #""recognizers":[{"id":"corner-tap","type":"tap","action":"corner"}]}}"#, id: 7)
    #expect(update.reply?["ok"] as? Bool == true && update.reply?["views"] as? Int == 2, "\(update.reply ?? [:])")
    let updated = watcher.readUntil(#""type":"updated""#, timeout: 5).match.flatMap(json)
    #expect(updated?["view"] as? String == "corner" && updated?["parent"] as? String == "main")
    #expect(try daemon.connect().1["views"] as? Int == 2)

    // A bad scene: refused, each problem by its path; the pushed and updated scene takes the next tap.
    let bad = app.command(
      #"{"cmd":"scene","id":3,"scene":{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"#
        + #""views":[{"id":"pad","fram":{"x":0,"y":0,"width":1,"height":1}}]}]}}"#, id: 3)
    #expect(bad.reply?["type"] as? String == "error")
    #expect(
      bad.reply?["message"] as? String
        == "scene rejected, the old scene stays: scene.windows[0].views[0]: error: missing required key 'frame' in "
        + "view 'pad'; scene.windows[0].views[0].fram: error: unknown key 'fram' in view 'pad' (did you mean 'frame'?)")
    let wrongType = app.command(#"{"cmd":"scene","id":4,"scene":"kiosk.yaml"}"#, id: 4)
    #expect(
      wrongType.reply?["message"] as? String
        == #"scene rejected, the old scene stays: scene: error: expected the scene as a JSON object, found "kiosk.yaml""#
    )
    let second = watcher.readUntil(#""type":"action""#, timeout: 10).match.flatMap(json)
    #expect(second?["action"] as? String == "corner")

    // `status` counts the push; `reload` returns to the file.
    let status = app.command(#"{"cmd":"status","id":5}"#, id: 5).reply
    #expect((status?["counters"] as? [String: Any])?["scenePushes"] as? Int == 1, "\(status ?? [:])")
    #expect(app.command(#"{"cmd":"reload","id":6}"#, id: 6).reply?["ok"] as? Bool == true)
    let back = watcher.readUntil(#""type":"reloaded""#, timeout: 5).match.flatMap(json)
    #expect(back?["source"] as? String == "file" && back?["views"] as? Int == 6)
  }
}
