/// `{"type":"scroll",…}`: a scroll view's delegate callback, named as in UIScrollViewDelegate
/// (docs/protocol.md, `scroll`).
public struct ScrollMessage: WireMessage {
  public static var typeName: String { "scroll" }

  /// Its place in the numbering of the pipeline's messages.
  public var seq: Int
  /// The callback: `willBeginDragging`, `didScroll`, `willEndDragging`, … (the daemon's
  /// `ScrollView.Phase` raw values).
  public var phase: String
  /// The scroll view's id.
  public var view: String
  public var window: String
  /// Seconds: the frame's time during a drag, the display tick's while the content moves on.
  public var time: Double
  /// The content offset after the callback's change, in points.
  public var contentOffset: WirePoint
  /// The zoom view's scale after the callback's change, for a scroll view that zooms; nil (absent)
  /// for one that does not.
  public var zoomScale: Double?
  /// `willEndDragging`: the offset's velocity at release in points per millisecond (UIKit's unit),
  /// positive when the offset grows.
  public var velocity: WirePoint?
  /// `willEndDragging`: where the content will come to rest.
  public var targetContentOffset: WirePoint?
  /// `didEndDragging`: whether the content moves on after the lift.
  public var willDecelerate: Bool?

  @inlinable public init(
    seq: Int, phase: String, view: String, window: String, time: Double, contentOffset: WirePoint,
    zoomScale: Double? = nil, velocity: WirePoint? = nil, targetContentOffset: WirePoint? = nil,
    willDecelerate: Bool? = nil
  ) {
    self.seq = seq
    self.phase = phase
    self.view = view
    self.window = window
    self.time = time
    self.contentOffset = contentOffset
    self.zoomScale = zoomScale
    self.velocity = velocity
    self.targetContentOffset = targetContentOffset
    self.willDecelerate = willDecelerate
  }

  @inlinable public var jsonLine: String {
    var w = JSONLineWriter(#"{"type":"scroll","seq":"#)
    w.integer(seq)
    w.string(#","phase":"#, phase)
    w.string(#","view":"#, view)
    w.string(#","window":"#, window)
    w.number(#","time":"#, time)
    w.point(#","contentOffset":"#, contentOffset)
    if let velocity { w.point(#","velocity":"#, velocity) }
    if let targetContentOffset { w.point(#","targetContentOffset":"#, targetContentOffset) }
    if let willDecelerate { w.raw(willDecelerate ? #","willDecelerate":true"# : #","willDecelerate":false"#) }
    if let zoomScale { w.number(#","zoomScale":"#, zoomScale) }
    return w.finish()
  }

  public init(decoding f: CommandFields) throws(ProtocolError) {
    seq = try f.requiredInteger("seq")
    phase = try f.requiredString("phase")
    view = try f.requiredString("view")
    window = try f.requiredString("window")
    time = try f.requiredNumber("time")
    contentOffset = try f.requiredPoint("contentOffset")
    zoomScale = try f.number("zoomScale")
    velocity = try f.point("velocity")
    targetContentOffset = try f.point("targetContentOffset")
    willDecelerate = try f.bool("willDecelerate")
  }

  public init(from decoder: any Decoder) throws { try self.init(decodingFrom: decoder) }
}
