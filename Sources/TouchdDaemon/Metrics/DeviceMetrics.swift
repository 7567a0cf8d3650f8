import CoreMetrics
import TouchdInput

/// A live device's counters (``MetricFamily/deviceFrames`` and its neighbours), labelled with the
/// device's name: registered when the device opens, kept after it goes (a device that comes back
/// under the same name goes on counting in the same series), counted on the pipeline's queue as
/// its frames arrive. Public for the benchmarks (MetricsPerFrame).
public struct DeviceMetrics {
  let frames: CoreMetrics.Counter
  let began: CoreMetrics.Counter
  let ended: CoreMetrics.Counter
  let cancelled: CoreMetrics.Counter
  let resyncs: CoreMetrics.Counter
  let unplugs: CoreMetrics.Counter
  let readErrors: CoreMetrics.Counter

  public init(device name: String, in metrics: DaemonMetrics) {
    frames = metrics.counter(.deviceFrames, name)
    began = metrics.counter(.deviceTouchesBegan, name)
    ended = metrics.counter(.deviceTouchesEnded, name)
    cancelled = metrics.counter(.deviceTouchesCancelled, name)
    resyncs = metrics.counter(.deviceResyncs, name)
    unplugs = metrics.counter(.deviceUnplugs, name)
    readErrors = metrics.counter(.deviceReadErrors, name)
  }

  /// A touch frame of the device, with its contacts' phases.
  public func count(_ frame: TouchFrame) {
    frames.increment()
    var (b, e, c) = (0, 0, 0)
    for contact in frame.contacts {
      switch contact.phase {
      case .began: b += 1
      case .ended: e += 1
      case .cancelled: c += 1
      default: break
      }
    }
    if b > 0 { began.increment(by: b) }
    if e > 0 { ended.increment(by: e) }
    if c > 0 { cancelled.increment(by: c) }
  }
}
