extension Scene {
  /// A view's `control:`: the view is a control (UIControl) of `type`, with UIKit's property names
  /// and defaults, and `actions` mapping control events to action names.
  public struct Control: Hashable, Sendable {
    /// The control classes a scene can name.
    public enum Kind: String, CaseIterable, Codable, Hashable, Sendable {
      /// UIButton.
      case button
      /// UISwitch.
      case `switch`
      /// UISlider.
      case slider
      /// UIStepper.
      case stepper
      /// UISegmentedControl.
      case segmented
      /// UIPageControl.
      case pageControl
    }

    public var type: Kind
    /// UIControl.isEnabled (default true).
    public var enabled = true
    /// UIControl.isSelected (default false).
    public var selected = false
    /// UISwitch.isOn (default false).
    public var on = false
    /// UISlider / UIStepper value (default 0).
    public var value = 0.0
    /// UISlider / UIStepper minimumValue (default 0).
    public var minimumValue = 0.0
    /// UISlider maximumValue (default 1) / UIStepper maximumValue (default 100).
    public var maximumValue: Double
    /// UISlider / UIStepper isContinuous (default true).
    public var continuous = true
    /// UIStepper stepValue (default 1).
    public var stepValue = 1.0
    /// UIStepper autorepeat (default true).
    public var autorepeat = true
    /// UISegmentedControl's segment titles, left to right.
    public var segments: [String] = []
    /// UISegmentedControl selectedSegmentIndex (default -1, `noSegment`).
    public var selectedSegmentIndex = -1
    /// UIPageControl numberOfPages (default 0).
    public var numberOfPages = 0
    /// UIPageControl currentPage (default 0).
    public var currentPage = 0
    /// UIPageControl hidesForSinglePage (default false).
    public var hidesForSinglePage = false
    /// UIPageControl allowsContinuousInteraction (default true).
    public var allowsContinuousInteraction = true
    /// A page control's paging scroll view, by id: scrolling it changes currentPage, a change on
    /// the control scrolls it to that page, animated.
    public var pages: String?
    /// Control event name (``SceneFormat/controlEvents``) → action name.
    public var actions: [String: String] = [:]

    enum CodingKeys: String, CodingKey, CaseIterable {
      case type, enabled, selected, on, value, minimumValue, maximumValue, continuous, stepValue, autorepeat
      case segments, selectedSegmentIndex, numberOfPages, currentPage, hidesForSinglePage
      case allowsContinuousInteraction, pages, actions
    }

    /// UIKit's default `maximumValue` for `type`: 1 for a slider, 100 for a stepper (UISlider.h,
    /// UIStepper.h), 0 where the control has no value.
    public static func defaultMaximum(for type: Kind) -> Double {
      switch type {
      case .slider: 1
      case .stepper: 100
      default: 0
      }
    }

    public init(type: Kind, actions: [String: String] = [:]) {
      self.type = type
      self.maximumValue = Self.defaultMaximum(for: type)
      self.actions = actions
    }
  }

  /// A window's `keys:`: which key devices feed the window's first responder, and which keys
  /// become which presses.
  public struct Keys: Hashable, Sendable {
    /// Globs over the key device's name, `vendor:product` (hex) or path, as a window's `devices`.
    public var devices: [String]
    /// evdev key name (`KEY_ENTER`) → press type (``SceneFormat/pressTypes``: `select`, `menu`,
    /// `playPause`, the arrows, `pageUp`, `pageDown`, or a free name). Keys not listed make no press.
    public var map: [String: String]

    enum CodingKeys: String, CodingKey, CaseIterable { case devices, map }

    public init(devices: [String], map: [String: String]) {
      self.devices = devices
      self.map = map
    }
  }
}
