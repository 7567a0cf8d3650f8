import TouchdScene

/// Scene files generated for the benchmarks.
public enum BenchScenes {
  /// A 1920x1080 window with `total` views nested `depth` levels deep: each level splits its
  /// parent into `branching[level]` children (alternately side by side and stacked, with a
  /// margin, so that some points land on the parents); creation stops at `total` views.
  public static func deepTree(total: Int = 1000, branching: [Int] = [5, 4, 3, 3, 2, 2]) -> Scene {
    struct Node {
      var id: String
      var x, y, w, h: Double
      var children: [Node] = []
    }
    var count = 0
    func split(_ w: Double, _ h: Double, level: Int) -> [Node] {
      guard level < branching.count else { return [] }
      var nodes: [Node] = []
      let n = branching[level]
      for i in 0..<n where count < total {
        count += 1
        let horizontal = level % 2 == 0
        let cw = horizontal ? w / Double(n) : w
        let ch = horizontal ? h : h / Double(n)
        let margin = min(cw, ch) * 0.05
        nodes.append(
          Node(
            id: "v\(count)", x: (horizontal ? cw * Double(i) : 0) + margin,
            y: (horizontal ? 0 : ch * Double(i)) + margin, w: cw - 2 * margin, h: ch - 2 * margin))
      }
      return nodes
    }
    // Breadth first, so every level is filled before the next one starts.
    var root = split(1920, 1080, level: 0)
    var frontier: [[Int]] = root.indices.map { [$0] }
    var level = 1
    while count < total && level < branching.count {
      var next: [[Int]] = []
      for path in frontier where count < total {
        func node(_ path: [Int], _ nodes: inout [Node], _ body: (inout Node) -> Void) {
          if path.count == 1 {
            body(&nodes[path[0]])
          } else {
            node(Array(path.dropFirst()), &nodes[path[0]].children, body)
          }
        }
        node(path, &root) { parent in
          parent.children = split(parent.w, parent.h, level: level)
          for i in parent.children.indices { next.append(path + [i]) }
        }
      }
      frontier = next
      level += 1
    }
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 1920, height: 1080}\n    views:\n"
    func emit(_ nodes: [Node], indent: String) {
      for n in nodes {
        yaml += "\(indent)- id: \(n.id)\n\(indent)  frame: {x: \(n.x), y: \(n.y), width: \(n.w), height: \(n.h)}\n"
        if !n.children.isEmpty {
          yaml += "\(indent)  views:\n"
          emit(n.children, indent: indent + "    ")
        }
      }
    }
    emit(root, indent: "      ")
    return try! Scene.parse(yaml, file: "deep-tree.yaml")
  }

  /// The pipeline scene: a 1920x1080 window of 20 tiles (5 by 4, 384x270), each with 9 children
  /// (3 by 3): 200 views. Tiles 0-9 have a pan and their center child a tap, a double tap and a
  /// long press (the tap requires the double tap to fail, the pan requires the long press to
  /// fail); tiles 10-19 have a pinch: 50 recognizers.
  ///
  /// `forward`: the window forwards (`forward: {}`, docs/forward.md). `keepTouches`: the pans and
  /// pinches keep their touches (`cancelsTouchesInView: false`), so that in the steady state every
  /// moving finger reaches its view, and, forwarding, the virtual touchscreen, in every frame:
  /// forwarding's worst case.
  public static func pipeline(forward: Bool = false, keepTouches: Bool = false) -> Scene {
    var yaml = "version: 1\nwindows:\n  - id: main\n    size: {width: 1920, height: 1080}\n"
    yaml += forward ? "    forward: {}\n    views:\n" : "    views:\n"
    let keep = keepTouches ? ", cancelsTouchesInView: false" : ""
    for t in 0..<20 {
      let (tx, ty) = (Double(t % 5) * 384, Double(t / 5) * 270)
      yaml += "      - id: tile\(t)\n        frame: {x: \(tx), y: \(ty), width: 384, height: 270}\n"
      yaml += "        multipleTouchEnabled: true\n        recognizers:\n"
      if t < 10 {
        yaml += "          - {id: pan\(t), type: pan, action: move\(t), requireToFail: [hold\(t)]\(keep)}\n"
      } else {
        yaml += "          - {id: pinch\(t), type: pinch, action: zoom\(t)\(keep)}\n"
      }
      yaml += "        views:\n"
      for c in 0..<9 {
        let (cx, cy) = (Double(c % 3) * 128, Double(c / 3) * 90)
        yaml += "          - id: tile\(t)-\(c)\n            frame: {x: \(cx), y: \(cy), width: 128, height: 90}\n"
        if t < 10 && c == 4 {
          yaml += """
                        recognizers:
                          - {id: tap\(t), type: tap, action: open\(t), requireToFail: [double\(t)]}
                          - {id: double\(t), type: tap, action: reset\(t), numberOfTapsRequired: 2}
                          - {id: hold\(t), type: longPress, action: menu\(t)}

            """
        }
      }
    }
    return try! Scene.parse(yaml, file: "pipeline.yaml")
  }
}

extension BenchScenes {
  /// `{"cmd":"scene","id":1,"scene":{…}}` with a 1920x1080 window of `views` views, as a web page
  /// marks up its elements: a grid of buttons 44 pt square, each with a tap, every tenth with a
  /// long press that the tap requires to fail, every fiftieth a pan instead (about 170 KB of JSON
  /// for 1,000 views).
  public static func pushLine(views: Int = 1000) -> [UInt8] {
    var items: [String] = []
    for i in 0..<views {
      let x = Double(i % 40) * 48
      let y = Double(i / 40) * 43
      var recognizers: [String] = []
      if i % 50 == 0 {
        recognizers.append(#"{"id":"pan-\#(i)","type":"pan","action":"drag-\#(i)","cancelsTouchesInView":false}"#)
      } else if i % 10 == 0 {
        recognizers.append(
          #"{"id":"tap-\#(i)","type":"tap","action":"press-\#(i)","requireToFail":["hold-\#(i)"]}"#)
        recognizers.append(#"{"id":"hold-\#(i)","type":"longPress","action":"hold-\#(i)","minimumPressDuration":0.8}"#)
      } else {
        recognizers.append(#"{"id":"tap-\#(i)","type":"tap","action":"press-\#(i)"}"#)
      }
      items.append(
        #"{"id":"el-\#(i)","frame":{"x":\#(x),"y":\#(y),"width":44,"height":40},"touches":\#(i % 7 == 0),"#
          + #""recognizers":[\#(recognizers.joined(separator: ","))]}"#)
    }
    let scene =
      #"{"version":1,"windows":[{"id":"main","size":{"width":1920,"height":1080},"views":["#
      + items.joined(separator: ",") + "]}]}"
    return Array((#"{"cmd":"scene","id":1,"scene":"# + scene + "}").utf8)
  }
}
