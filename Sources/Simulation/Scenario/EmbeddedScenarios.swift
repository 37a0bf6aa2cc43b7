// The default scenario, embedded so that `deferral-sim run` works from any folder.
// A byte-for-byte copy of scenarios/indie-subscription.json, written by
// `bash scripts/embed-default-scenario.sh`: run it after editing that file (a test fails while
// the two differ). Do not edit the literal by hand.

extension ScenarioLoader {
  /// The text of `scenarios/indie-subscription.json`, byte for byte.
  public static let embeddedDefaultJSON = _indieSubscriptionJSON
}

// swift-format-ignore
let _indieSubscriptionJSON = #"""
{
  "$schema": "./schema.json",
  "schema": 1,
  "name": "indie-subscription",
  "description": "An indie meditation app with a monthly subscription (the default). New users go through four onboarding screens and a paywall; existing users open it about twice a day for a short guided session. A price increase is rolled out to 80% of subscribers from day 3, each with 7 to 30 days to consent before renewal. Numbers: scenarios/README.md.",
  "horizon": "30d",
  "users": 20000,
  "replications": 10,
  "seed": 42,
  "population": {
    "new_user_share": 0.3,
    "install_window": {"start": "0s", "end": "25d"},
    "subscriber_share": 0.4,
    "returning_subscriber_share": 0.1
  },
  "sessions": {
    "gap": {"lognormal": {"median": "7h", "sigma": 1.1}},
    "background_survival": {"lognormal": {"median": "4h", "sigma": 1.2}},
    "delivery": "launch_and_resume",
    "fetch_delay": {"lognormal": {"median": "1.5s", "sigma": 0.5}}
  },
  "screens": [
    {
      "name": "splash",
      "kind": "launch",
      "dwell": {"uniform": {"low": "800ms", "high": "2.5s"}}
    },
    {
      "name": "welcome",
      "kind": "onboarding",
      "dwell": {"lognormal": {"median": "6s", "sigma": 0.6}},
      "transitions": {"goals": 0.93, "background": 0.07}
    },
    {
      "name": "goals",
      "kind": "onboarding",
      "dwell": {"lognormal": {"median": "14s", "sigma": 0.7}},
      "transitions": {"personalize": 0.94, "background": 0.06}
    },
    {
      "name": "personalize",
      "kind": "onboarding",
      "dwell": {"lognormal": {"median": "12s", "sigma": 0.7}},
      "transitions": {"notifications": 0.95, "background": 0.05}
    },
    {
      "name": "notifications",
      "kind": "onboarding",
      "dwell": {"lognormal": {"median": "7s", "sigma": 0.6}},
      "transitions": {"paywall": 0.96, "background": 0.04}
    },
    {
      "name": "paywall",
      "kind": "paywall",
      "dwell": {"lognormal": {"median": "15s", "sigma": 0.8}},
      "transitions": {"checkout": 0.1, "home": 0.8, "background": 0.1}
    },
    {
      "name": "checkout",
      "kind": "checkout",
      "dwell": {"lognormal": {"median": "20s", "sigma": 0.5}},
      "transitions": {"home": 0.85, "background": 0.15}
    },
    {
      "name": "home",
      "kind": "home",
      "dwell": {"lognormal": {"median": "25s", "sigma": 0.9}},
      "transitions": {
        "library": 0.35,
        "session": 0.25,
        "settings": 0.05,
        "paywall": 0.05,
        "background": 0.3
      }
    },
    {
      "name": "library",
      "kind": "content",
      "dwell": {"lognormal": {"median": "40s", "sigma": 0.9}},
      "transitions": {"session": 0.35, "home": 0.35, "background": 0.3}
    },
    {
      "name": "session",
      "kind": "immersive",
      "dwell": {"lognormal": {"median": "8m", "sigma": 0.5}},
      "transitions": {"home": 0.45, "background": 0.55}
    },
    {
      "name": "settings",
      "kind": "settings",
      "dwell": {"lognormal": {"median": "20s", "sigma": 0.7}},
      "transitions": {"home": 0.75, "background": 0.25}
    }
  ],
  "entries": {"cold_launch": "splash", "new_user": "welcome", "returning": "home"},
  "onboarding": {
    "quit_after_sheet_probability": 0.3,
    "never_return_after_leaving_probability": 0.5
  },
  "scene": {
    "activation_delay": {"uniform": {"low": "150ms", "high": "700ms"}},
    "display_failure_probability": 0.005
  },
  "sheet_dwell": {"lognormal": {"median": "6s", "sigma": 0.6}},
  "messages": {
    "price_increase_consent": {
      "campaign_start": "3d",
      "rollout_window": "2d",
      "audience_share": 0.8,
      "deadline": {"uniform": {"low": "7d", "high": "30d"}},
      "expiry": {"exponential": {"mean": "30d"}}
    },
    "billing_issue": {
      "audience": "subscribers",
      "mean_interval": "365d",
      "expiry": {"exponential": {"mean": "3d"}}
    },
    "win_back_offer": {
      "audience": "lapsed",
      "mean_interval": "90d",
      "expiry": {"exponential": {"mean": "14d"}}
    },
    "generic": {"audience": "all", "mean_interval": "730d", "expiry": null},
    "unknown": [{"raw_value": 7, "audience": "all", "mean_interval": "3650d", "expiry": null}]
  },
  "responses": {
    "price_increase_consent": {
      "choice": {"probability": 0.75, "odds": {"interrupting": 0.4, "first_seconds": 0.7, "per_day_waited": 0.98}},
      "accept": {"probability": 0.85, "odds": {"interrupting": 0.6, "screen_kinds": {"paywall": 0.7}}}
    },
    "billing_issue": {"fixed": {"probability": 0.35, "odds": {"interrupting": 0.5, "first_seconds": 0.8}}},
    "win_back_offer": {"redeemed": {"probability": 0.12, "odds": {"interrupting": 0.6}}},
    "first_seconds": "10s",
    "moment_strength": 1,
    "sources": {
      "price_increase_consent": "assumption: no published in-app consent rates exist; 75% of users shown the sheet at a calm moment make a choice and 85% of those accept (most subscribers keep a modest increase). Over a task (an interruptible screen: launch, onboarding, paywall, checkout, immersive) the odds of a choice are 0.4x and of accepting 0.6x; in the first 10 seconds after opening 0.7x; 2% lower per day held; over a paywall acceptance is 0.7x (a price-sensitive moment). The direction follows the source article ('if consent rates are low, I change the screen it appears on'); the sizes are ours: replace them with your log's ('fit') or vary them (scenarios/uncertainty/)",
      "billing_issue": "assumption: 35% fix the payment from the sheet at a calm moment, half the odds over a task, 0.8x in the first seconds; the others may still fix it outside the app (the message's expiry)",
      "win_back_offer": "assumption: 12% of lapsed users redeem a win-back offer shown at a calm moment, 0.6x the odds over a task",
      "outside_app": "the channel outside the app is each message's expiry (Apple's email, notification and subscription settings): see messages"
    }
  },
  "policies": "all",
  "baseline": "storekit-auto",
  "value": {
    "unit": "USD",
    "onboarding_completed": 6.0,
    "consent_deadline_missed": 25.0,
    "billing_issue_unresolved": 8.5,
    "checkout_interrupted": 6.0,
    "immersive_interrupted": 0,
    "sources": {
      "onboarding_completed": "assumption: 10% of users who finish onboarding start a paid plan, each worth 60 USD in the first year (9.99 USD a month x 12 x 85% after Apple's Small Business Program commission x 60% average retention)",
      "consent_deadline_missed": "a renewal lapses (Apple does not renew without consent): 8.49 USD net a month x 3 further months expected (assumption: many lapsed users resubscribe or would have left anyway)",
      "billing_issue_unresolved": "assumption: a billing issue still open at the end puts one month's net revenue at risk, 8.49 USD",
      "checkout_interrupted": "assumption: 10% of checkouts with a sheet over them are abandoned x 60 USD first-year value",
      "immersive_interrupted": "not priced: no honest default for a sheet over a guided session; put your own cost"
    }
  },
  "app": {
    "users": 40000,
    "subscribers": 6000,
    "period": "30d"
  }
}

"""#
