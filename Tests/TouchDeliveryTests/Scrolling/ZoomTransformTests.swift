import Testing

@testable import TouchDelivery

/// The zoom transform against hand-computed numbers: a view's ``View/scale`` in hit-testing and
/// conversion, a scroll view's `setZoomScale` and `zoom(to:)` (scale, offset, content size), the
/// limits, the rubber band of the scale, and the pinch recognizer that exists only while the view
/// can zoom. Out of an application nothing ticks, so animated changes jump to their end.
@Suite("Zoom transform") struct ZoomTransformTests {
  /// A 200 x 200 scroll view at (100, 50) in a 1000 x 800 window zooming `photo` (400 x 300 at the
  /// content's origin, scales 1...4), with a 20 x 20 `pin` at (100, 80) in the photo.
  final class Map {
    let window = Window(frame: Rect(x: 0, y: 0, width: 1000, height: 800))
    let scrollView = ScrollView(frame: Rect(x: 100, y: 50, width: 200, height: 200))
    let photo = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
    let pin = View(frame: Rect(x: 100, y: 80, width: 20, height: 20))
    var events: [ScrollView.ScrollEvent] = []

    init() {
      window.addSubview(scrollView)
      scrollView.addSubview(photo)
      photo.addSubview(pin)
      scrollView.contentSize = Size(width: 400, height: 300)
      scrollView.zoomView = photo
      scrollView.maximumZoomScale = 4
      scrollView.onScroll = { [unowned self] _, event in events.append(event) }
    }
  }

  @Test("a scaled view's frame is its bounds times the scale, its origin fixed")
  func scaledFrame() {
    let view = View(frame: Rect(x: 10, y: 20, width: 400, height: 300))
    view.scale = 2.5
    #expect(view.frame == Rect(x: 10, y: 20, width: 1000, height: 750))
    #expect(view.bounds == Rect(x: 0, y: 0, width: 400, height: 300))
    view.frame = Rect(x: 0, y: 0, width: 500, height: 500)
    #expect(view.bounds.size == Size(width: 200, height: 200))
  }

  @Test(
    "setZoomScale scales around the view's centre: scale 2 from offset 0 puts (100, 100) of the photo at the centre")
  func setZoomScaleAroundTheCentre() {
    let map = Map()
    map.scrollView.setZoomScale(2)
    #expect(map.scrollView.zoomScale == 2)
    #expect(map.photo.scale == 2)
    #expect(map.photo.frame == Rect(x: 0, y: 0, width: 800, height: 600))
    #expect(map.scrollView.contentSize == Size(width: 800, height: 600))
    // The centre (100, 100) of the photo → (200, 200) in content; minus the half view: (100, 100).
    #expect(map.scrollView.contentOffset == Point(x: 100, y: 100))
    #expect(map.events.map(\.phase) == [.didZoom, .didScroll])
    #expect(map.events.map(\.zoomScale) == [2, 2])
  }

  @Test("a tap on the zoomed map hits the pin under the finger, and its location is in the pin's own points")
  func hitTestingFollowsTheZoom() {
    let map = Map()
    map.scrollView.setZoomScale(2)
    map.scrollView.setContentOffset(Point(x: 150, y: 100))
    // Pin point (5, 5): photo (105, 85) → content (210, 170) → scroll view (60, 70) → window (160, 120).
    #expect(map.window.hitTest(Point(x: 160, y: 120), with: nil) === map.pin)
    #expect(map.pin.convert(Point(x: 160, y: 120), from: nil) == Point(x: 5, y: 5))
    #expect(map.pin.convertToWindow(Point(x: 5, y: 5)) == Point(x: 160, y: 120))
    // The pin's far corner (20, 20) is window (190, 150); a point past it is the photo's.
    #expect(map.window.hitTest(Point(x: 189.9, y: 149.9), with: nil) === map.pin)
    #expect(map.window.hitTest(Point(x: 190.1, y: 150.1), with: nil) === map.photo)
    let inPhoto = map.photo.convert(Point(x: 190.1, y: 150.1), from: nil)
    #expect(abs(inPhoto.x - 120.05) < 1e-9 && abs(inPhoto.y - 100.05) < 1e-9)
    // Unzoomed the same window point is photo (210, 170): nowhere near the pin.
    map.scrollView.setZoomScale(1)
    #expect(map.window.hitTest(Point(x: 160, y: 120), with: nil) === map.photo)
  }

  @Test("zoom(to:) shows the whole rect, centred: 100 x 50 in a 200 x 200 view is scale 2")
  func zoomToRect() {
    let map = Map()
    map.scrollView.zoom(to: Rect(x: 200, y: 150, width: 100, height: 50))
    // min(200/100, 200/50) = 2; the rect's centre (250, 175) → content (500, 350) at the view's centre.
    #expect(map.scrollView.zoomScale == 2)
    #expect(map.scrollView.contentOffset == Point(x: 400, y: 250))
  }

  @Test("zoom(to:) near the edge keeps the offset inside the content")
  func zoomToRectAtTheEdge() {
    let map = Map()
    map.scrollView.zoom(to: Rect(x: 350, y: 0, width: 50, height: 50))
    // Scale 4: content 1600 x 1200; the rect's centre (375, 25) wants offset (1400, −0), at most (1400, 1000).
    #expect(map.scrollView.zoomScale == 4)
    #expect(map.scrollView.contentOffset == Point(x: 1400, y: 0))
    map.scrollView.zoom(to: Rect(x: 390, y: 290, width: 10, height: 10))
    // Scale min(20, 20) clamped to 4; centre (395, 295) → (1580, 1180) − 100 = (1480, 1080), clamped.
    #expect(map.scrollView.contentOffset == Point(x: 1400, y: 1000))
  }

  @Test("the scale stays within minimumZoomScale...maximumZoomScale, and zooming out keeps the content at its top-left")
  func limits() {
    let map = Map()
    map.scrollView.minimumZoomScale = 0.5
    map.scrollView.setZoomScale(10)
    #expect(map.scrollView.zoomScale == 4)
    map.scrollView.setZoomScale(0.1)
    #expect(map.scrollView.zoomScale == 0.5)
    #expect(map.scrollView.contentSize == Size(width: 200, height: 150))
    #expect(map.scrollView.contentOffset == Point(x: 0, y: 0))
  }

  @Test("the pinch exists only while the view can zoom: a zoom view and maximumZoomScale above the minimum")
  func pinchOnlyWhileZooming() {
    let scrollView = ScrollView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    let photo = View(frame: Rect(x: 0, y: 0, width: 200, height: 200))
    scrollView.addSubview(photo)
    #expect(scrollView.pinchGestureRecognizer == nil)
    scrollView.maximumZoomScale = 3
    #expect(scrollView.pinchGestureRecognizer == nil)  // no zoom view
    scrollView.zoomView = photo
    let pinch = scrollView.pinchGestureRecognizer
    #expect(pinch != nil)
    #expect(scrollView.gestureRecognizers.last === pinch)
    scrollView.maximumZoomScale = 1
    #expect(scrollView.pinchGestureRecognizer == nil)
    #expect(!scrollView.gestureRecognizers.contains { $0 === pinch })
  }

  @Test("past its limits the scale rubber-bands as the offset does, with the limit as the dimension")
  func scaleRubberBand() {
    // Twice the maximum 2: 2 + (1 − 1/(2·0.55/2 + 1))·2 = 2 + 1.1/1.55.
    let banded = ScrollPhysics.bandedZoomScale(4, minimum: 1, maximum: 2)
    #expect(abs(banded - (2 + 1.1 / 1.55)) < 1e-12)
    // Half the minimum 1: 1 − (1 − 1/(0.5·0.55 + 1)) = 1/1.275.
    #expect(abs(ScrollPhysics.bandedZoomScale(0.5, minimum: 1, maximum: 2) - 1 / 1.275) < 1e-12)
    #expect(ScrollPhysics.bandedZoomScale(1.5, minimum: 1, maximum: 2) == 1.5)
    #expect(abs(ScrollPhysics.unbandedZoomScale(banded, minimum: 1, maximum: 2) - 4) < 1e-9)
  }
}
