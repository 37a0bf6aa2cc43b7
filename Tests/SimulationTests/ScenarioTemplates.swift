import Simulation
import Testing

/// A small valid scenario that uses every distribution kind and relies on every default;
/// invalid documents are made from it by replacing one fragment.
enum ScenarioTemplates {
  static let minimal = #"""
    {
      "schema": 1,
      "name": "tiny",
      "horizon": "30d",
      "population": {
        "new_user_share": 0.3,
        "install_window": {"start": "0s", "end": "25d"},
        "subscriber_share": 0.4,
        "returning_subscriber_share": 0.1
      },
      "sessions": {
        "gap": {"exponential": {"mean": "8h"}},
        "background_termination_probability": 0.5,
        "delivery": "launch",
        "fetch_delay": {"fixed": "1s"}
      },
      "screens": [
        {"name": "splash", "kind": "launch", "dwell": {"fixed": {"value": 1.5}}},
        {
          "name": "intro",
          "kind": "onboarding",
          "dwell": {"lognormal": {"median": "10s", "sigma": 0.8}},
          "transitions": {"home": 0.9, "background": 0.1}
        },
        {
          "name": "home",
          "kind": "home",
          "dwell": {"uniform": {"low": "5s", "high": "60s"}},
          "transitions": {"player": 0.5, "background": 0.5}
        },
        {
          "name": "player",
          "kind": "immersive",
          "dwell": {"gamma": {"shape": 2, "scale": "3m"}},
          "transitions": {"home": 0.6, "background": 0.4}
        }
      ],
      "entries": {"cold_launch": "splash", "new_user": "intro", "returning": "home"},
      "onboarding": {
        "quit_after_sheet_probability": 0.25,
        "never_return_after_leaving_probability": 0.5
      },
      "scene": {
        "activation_delay": {"weibull": {"shape": 1.5, "scale": "300ms"}},
        "display_failure_probability": 0.01
      },
      "sheet_dwell": {"empirical": {"values": ["3s", "6s", "12s"], "weights": [1, 2, 1]}},
      "messages": {
        "price_increase_consent": {
          "campaign_start": "3d",
          "rollout_window": "2d",
          "audience_share": 0.8,
          "deadline": {"uniform": {"low": "7d", "high": "30d"}}
        },
        "billing_issue": {"mean_interval": "120d", "expiry": {"exponential": {"mean": "3d"}}},
        "unknown": [{"raw_value": 7, "mean_interval": "365d"}]
      },
      "policies": ["storekit-auto", "deadline-aware"]
    }
    """#

  /// `minimal` with each `(old, new)` applied; records an issue unless each `old` occurs
  /// exactly once, so a stale fragment cannot turn a test into one of the valid document.
  static func minimal(replacing edits: [(String, String)]) -> String {
    var text = minimal
    for (old, new) in edits {
      let count = text.ranges(of: old).count
      if count != 1 {
        Issue.record("fragment \(old) occurs \(count) times in the template, not once")
      }
      text = text.replacing(old, with: new, maxReplacements: 1)
    }
    return text
  }

  /// Loads `text`, returning the errors (or `nil` if it loaded).
  static func errors(of text: String, file: String = "test.json") -> ScenarioErrors? {
    do {
      _ = try ScenarioLoader.load(json: text, file: file)
      return nil
    } catch {
      return error
    }
  }
}
