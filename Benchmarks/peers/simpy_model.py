#!/usr/bin/env python3
"""An independent SimPy model of deferral-sim's world, for deferral-bench's peer comparison.

It reads the same scenario file as the Swift engine (scenarios/indie-subscription.json by
default), simulates the same world (DESIGN.md section 2, scenarios/README.md) under the
policies `storekit-auto` and `screen-gate-ceiling` (DESIGN.md section 3 and the presets' doc
comments), with its own random numbers (Python's Mersenne Twister, one generator per
replication, user and purpose), and prints per-replication metrics plus its own speed as JSON.

Agreement with the engine is statistical: both report means over replications, and
deferral-bench compares them within their combined 95% intervals.

Scheduling is SimPy's: every timed happening is a `simpy.Environment` event (a timeout with a
callback), App Store issuance runs as SimPy processes, and the environment's clock and heap
order everything (ties leave in scheduling order, as in the engine). One environment per
simulated (user, policy), as the engine keeps one small event queue per user.

Usage:
  simpy_model.py [--scenario FILE] [--users N] [--replications R] [--seed S]
                 [--policies storekit-auto,screen-gate-ceiling]
"""

import argparse
import bisect
import json
import math
import random
import sys
import time

import simpy

INF = math.inf

# ---------------------------------------------------------------- scenario file

UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def duration(value):
    """A duration: a JSON number of seconds, or "250ms", "45s", "3m", "1.5h", "3d"."""
    if isinstance(value, (int, float)):
        return float(value)
    for unit in ("ms", "s", "m", "h", "d"):
        if value.endswith(unit) and not (unit == "s" and value.endswith("ms")):
            return float(value[: -len(unit)]) * UNITS[unit]
    raise ValueError("not a duration: %r" % (value,))


def sampler(spec):
    """A function rng -> one draw, for a distribution object of the scenario format."""
    (kind, params), = spec.items()
    if kind == "fixed":
        value = duration(params["value"] if isinstance(params, dict) else params)
        return lambda rng: value
    if kind == "exponential":
        rate = 1.0 / duration(params["mean"])
        return lambda rng: rng.expovariate(rate)
    if kind == "lognormal":
        mu = math.log(duration(params["median"]))
        sigma = float(params["sigma"])
        return lambda rng: rng.lognormvariate(mu, sigma)
    if kind == "gamma":
        shape, scale = float(params["shape"]), duration(params["scale"])
        return lambda rng: rng.gammavariate(shape, scale)
    if kind == "weibull":
        shape, scale = float(params["shape"]), duration(params["scale"])
        return lambda rng: rng.weibullvariate(scale, shape)
    if kind == "uniform":
        low, high = duration(params["low"]), duration(params["high"])
        width = high - low
        return lambda rng: low + width * rng.random()
    if kind == "empirical":
        values = [duration(v) for v in params["values"]]
        cumulative, total = [], 0.0
        for weight in params["weights"]:
            total += float(weight)
            cumulative.append(total)
        return lambda rng: values[bisect.bisect_right(cumulative, rng.random() * total)]
    raise ValueError("unknown distribution kind %r" % (kind,))


def forward_sampler(spec):
    """A function rng -> one draw of the forward-recurrence time of a gap distribution (the
    wait from a random moment of a renewal process of gaps to its next renewal, density
    P(gap > x) / E[gap]): U * L with U uniform on [0, 1) and L the length-biased gap, by kind
    as scenarios/README.md ("First open of an existing user") gives it."""
    (kind, params), = spec.items()
    if kind == "exponential":
        return sampler(spec)  # memoryless: the wait is a gap
    if kind == "fixed":
        value = duration(params["value"] if isinstance(params, dict) else params)
        return lambda rng: rng.random() * value
    if kind == "lognormal":
        sigma = float(params["sigma"])
        mu = math.log(duration(params["median"])) + sigma * sigma
        return lambda rng: rng.random() * rng.lognormvariate(mu, sigma)
    if kind == "gamma":
        shape, scale = float(params["shape"]), duration(params["scale"])
        return lambda rng: rng.random() * rng.gammavariate(shape + 1.0, scale)
    if kind == "weibull":
        shape, scale = float(params["shape"]), duration(params["scale"])
        return lambda rng: (rng.random() * scale
                            * rng.gammavariate(1.0 + 1.0 / shape, 1.0) ** (1.0 / shape))
    if kind == "uniform":
        low, high = duration(params["low"]), duration(params["high"])
        return lambda rng: rng.random() * math.sqrt(
            low * low + rng.random() * (high * high - low * low))
    if kind == "empirical":
        values = [duration(v) for v in params["values"]]
        biased = {"empirical": {"values": params["values"],
                                "weights": [float(w) * v for w, v in
                                            zip(params["weights"], values)]}}
        length = sampler(biased)
        return lambda rng: rng.random() * length(rng)
    raise ValueError("unknown distribution kind %r" % (kind,))


def refuse(path, what):
    """Stops on a scenario feature this peer does not model, rather than silently differ."""
    sys.exit("simpy_model.py: %s: %s is not modelled by the SimPy peer; compare on a "
             "scenario without it (Benchmarks/README.md, \"The SimPy peer\")" % (path, what))


TOP_LEVEL = {"$schema", "schema", "name", "description", "horizon", "users", "replications",
             "seed", "population", "sessions", "screens", "entries", "onboarding", "scene",
             "sheet_dwell", "messages", "policies", "baseline", "value"}
SESSION_KEYS = {"gap", "background_survival", "background_termination_probability",
                "delivery", "fetch_delay"}
MESSAGE_KEYS = {"price_increase_consent", "billing_issue", "win_back_offer", "generic",
                "unknown"}
DELIVERY_MODES = ("launch", "launch_and_resume", "every_foreground")

INTERRUPTIBLE = {"launch", "onboarding", "paywall", "checkout", "immersive"}
LANES = {"price_increase_consent": 0, "billing_issue": 1, "win_back_offer": 2, "generic": 3}
CONSENT, BILLING = 0, 1


class World:
    """The scenario, parsed from its JSON file."""

    def __init__(self, path):
        with open(path) as handle:
            doc = json.load(handle)
        self.name = doc["name"]
        self.horizon = duration(doc["horizon"])
        self.seed = int(doc.get("seed", 1))
        pop = doc["population"]
        self.new_user_share = float(pop["new_user_share"])
        self.install_start = duration(pop["install_window"]["start"])
        self.install_end = duration(pop["install_window"]["end"])
        self.subscriber_share = float(pop["subscriber_share"])
        self.returning_subscriber_share = float(pop["returning_subscriber_share"])
        for key in doc:
            if key not in TOP_LEVEL:
                refuse("%s: %s" % (path, key), "this top-level key")
        sessions = doc["sessions"]
        for key in sessions:
            if key not in SESSION_KEYS:
                refuse("%s: sessions.%s" % (path, key), "this sessions key")
        self.gap = sampler(sessions["gap"])
        self.first_wait = forward_sampler(sessions["gap"])
        # A stay in the background ends in termination either with a constant probability
        # or, with a survival distribution, iff the process survives less than the gap.
        survival = sessions.get("background_survival")
        self.survival = sampler(survival) if survival is not None else None
        self.termination = (None if survival is not None
                            else float(sessions["background_termination_probability"]))
        self.delivery = sessions.get("delivery", "launch_and_resume")
        if self.delivery not in DELIVERY_MODES:
            refuse("%s: sessions.delivery" % path, "delivery mode %r" % (self.delivery,))
        self.fetch_delay = sampler(sessions["fetch_delay"])
        names = [screen["name"] for screen in doc["screens"]]
        self.kinds = [screen["kind"] for screen in doc["screens"]]
        self.dwell = [sampler(screen["dwell"]) for screen in doc["screens"]]
        # Transitions in file order: (cumulative probabilities, targets); -1 is background.
        self.transitions = []
        for screen in doc["screens"]:
            cumulative, targets, total = [], [], 0.0
            for target, probability in screen.get("transitions", {}).items():
                total += float(probability)
                cumulative.append(total)
                targets.append(-1 if target == "background" else names.index(target))
            self.transitions.append((cumulative, targets) if targets else None)
        entries = doc["entries"]
        self.cold_launch = names.index(entries["cold_launch"])
        self.new_user_entry = names.index(entries["new_user"])
        self.returning_entry = names.index(entries["returning"])
        self.quit_after_sheet = float(doc["onboarding"]["quit_after_sheet_probability"])
        self.never_return = float(doc["onboarding"]["never_return_after_leaving_probability"])
        self.activation_delay = sampler(doc["scene"]["activation_delay"])
        self.display_failure = float(doc["scene"]["display_failure_probability"])
        self.sheet_dwell = sampler(doc["sheet_dwell"])
        messages = doc["messages"]
        for key in messages:
            if key not in MESSAGE_KEYS and messages[key]:
                refuse("%s: messages.%s" % (path, key), "this message source")
        consent = messages.get("price_increase_consent")
        self.consent = None
        if consent is not None:
            expiry = consent.get("expiry")
            self.consent = {
                "start": duration(consent["campaign_start"]),
                "window": duration(consent["rollout_window"]),
                "share": float(consent["audience_share"]),
                "deadline": sampler(consent["deadline"]),
                "expiry": sampler(expiry) if expiry is not None else None,
            }
        # Recurring processes in the fixed order billing, win-back, generic, unknown.
        self.recurring = []
        defaults = {"billing_issue": "subscribers", "win_back_offer": "lapsed", "generic": "all"}
        for key in ("billing_issue", "win_back_offer", "generic"):
            if messages.get(key) is not None:
                self.recurring.append(self._recurring(messages[key], LANES[key], defaults[key]))
        for unknown in messages.get("unknown", []) or []:
            self.recurring.append(self._recurring(unknown, 4, "all"))

    @staticmethod
    def _recurring(spec, lane, default_audience):
        expiry = spec.get("expiry")
        return {
            "lane": lane,
            "audience": spec.get("audience", default_audience),
            "mean": duration(spec["mean_interval"]),
            "expiry": sampler(expiry) if expiry is not None else None,
        }


# ---------------------------------------------------------------- policies

class Policy:
    """The parts of a deferral policy the two modelled presets use."""

    def __init__(self, name, gate, gate_at_launch, flush_on_gate, article_order,
                 append_failed, retry_on_scene, dedup, consent_ceiling):
        self.name = name
        self.gate = gate                      # kind -> True (open), False (closed), None (as is)
        self.gate_at_launch = gate_at_launch
        self.flush_on_gate = flush_on_gate    # a screen that assigns the switch flushes
        self.article_order = article_order    # consent and billing inserted at index 0
        self.append_failed = append_failed    # a failed display goes to the back
        self.retry_on_scene = retry_on_scene  # scene activation shows what is pending
        self.dedup = dedup
        self.consent_ceiling = consent_ceiling  # seconds from in-process arrival, or None


ALL_OPEN = {kind: True for kind in
            ("launch", "onboarding", "paywall", "checkout", "immersive", "home", "settings",
             "content")}
ARTICLE_GATE = {"launch": False, "onboarding": False, "paywall": False, "checkout": False,
                "immersive": False, "home": True, "settings": True, "content": None}

POLICIES = {
    # StoreKit's default: every message shown on delivery, over any screen, once a scene is
    # active; what could not be shown is shown when the scene next becomes active.
    "storekit-auto": Policy("storekit-auto", ALL_OPEN, True, False, False, False, True, True,
                            None),
    # The article's coordinator plus its 12 h consent ceiling, timed from in-process arrival.
    "screen-gate-ceiling": Policy("screen-gate-ceiling", ARTICLE_GATE, False, True, True, True,
                                  False, False, 12 * 3600.0),
}


class Entry:
    __slots__ = ("message", "lane", "arrived", "in_flight")

    def __init__(self, message, lane, arrived):
        self.message = message
        self.lane = lane
        self.arrived = arrived
        self.in_flight = False


class Coordinator:
    """Decides which queued messages to display at each event. Returns display requests as
    (message index, forced) pairs; `wake` is the time it wants a timer at, or None."""

    def __init__(self, policy):
        self.policy = policy
        self.store = []
        self.can_present = policy.gate_at_launch
        self.scene_active = False
        self.wake = None

    def reset(self):
        self.store = []
        self.can_present = self.policy.gate_at_launch
        self.scene_active = False

    def due(self, entry):
        if entry.lane == CONSENT and self.policy.consent_ceiling is not None:
            return entry.arrived + self.policy.consent_ceiling
        return INF

    def flush(self, now, regular):
        if not self.scene_active or not self.store:
            return []
        requests = []
        for entry in self.store:
            if entry.in_flight:
                continue
            forced = self.due(entry) <= now
            if forced or (regular and self.can_present):
                entry.in_flight = True
                requests.append((entry.message, forced))
        return requests

    def next_wake(self, now):
        if self.policy.consent_ceiling is None:
            return None
        earliest = INF
        for entry in self.store:
            if not entry.in_flight:
                due = self.due(entry)
                if now < due < earliest:
                    earliest = due
        return earliest if earliest < INF else None

    def delivered(self, message, lane, now):
        if not (self.policy.dedup and any(e.message == message for e in self.store)):
            entry = Entry(message, lane, now)
            if self.policy.article_order and lane <= BILLING:
                self.store.insert(0, entry)
            else:
                self.store.append(entry)
        return self.flush(now, True)

    def screen_appeared(self, kind, now):
        rule = self.policy.gate[kind]
        if rule is not None:
            self.can_present = rule
        return self.flush(now, rule is not None and self.policy.flush_on_gate)

    def scene_activated(self, now):
        self.scene_active = True
        return self.flush(now, self.policy.retry_on_scene)

    def _take(self, message):
        for index, entry in enumerate(self.store):
            if entry.message == message and entry.in_flight:
                return self.store.pop(index)
        for index, entry in enumerate(self.store):
            if entry.message == message:
                return self.store.pop(index)
        return None

    def display_result(self, message, success):
        if success:
            self._take(message)
        elif self.policy.append_failed:
            entry = self._take(message)
            if entry is not None:
                entry.in_flight = False
                self.store.append(entry)
        else:
            for entry in self.store:
                if entry.message == message and entry.in_flight:
                    entry.in_flight = False
                    break
        return []


# ---------------------------------------------------------------- one user

PENDING, DISPLAYED, EXPIRED = 0, 1, 2


class Tally:
    FIELDS = ("users", "events", "runs_started", "runs_interrupted", "new_onboarding",
              "new_completed", "issued", "displayed", "expired", "pending", "fallback_fired",
              "display_attempts", "deadlines_due", "deadline_misses")

    def __init__(self):
        for field in self.FIELDS:
            setattr(self, field, 0)
        self.consent_latencies = []

    def metrics(self):
        def ratio(a, b):
            return a / b if b else None
        latencies = sorted(self.consent_latencies)
        n = len(latencies)
        return {
            "onboarding_interruption_rate": ratio(self.runs_interrupted, self.runs_started),
            "onboarding_completion_rate": ratio(self.new_completed, self.new_onboarding),
            "consent_latency_mean_s": sum(latencies) / n if n else None,
            "consent_latency_p50_s": latencies[(n - 1) // 2] if n else None,
            "consent_deadline_miss_rate": ratio(self.deadline_misses, self.deadlines_due),
            "fallback_fired_per_1k_users": 1000.0 * self.fallback_fired / self.users,
            "messages_issued_per_1k_users": 1000.0 * self.issued / self.users,
            "messages_displayed_per_1k_users": 1000.0 * self.displayed / self.users,
            "messages_pending_per_1k_users": 1000.0 * self.pending / self.users,
            "display_attempts_per_1k_users": 1000.0 * self.display_attempts / self.users,
            "events_per_user": self.events / self.users,
        }


def user_rng(seed, replication, user, purpose):
    return random.Random((seed * 1_000_003 + replication) * 10_000_019 * 8 + user * 8 + purpose)


class User:
    """One user's life under one policy, in its own SimPy environment."""

    def __init__(self, world, policy, seed, replication, user, tally):
        self.w = world
        self.t = tally
        self.env = simpy.Environment()
        self.journey = user_rng(seed, replication, user, 0)
        self.store_rng = user_rng(seed, replication, user, 1)
        self.scene_rng = user_rng(seed, replication, user, 2)
        self.sheet_rng = user_rng(seed, replication, user, 3)
        self.coordinator = Coordinator(policy)
        # Messages: parallel lists indexed by message number.
        self.lane, self.issued_at, self.deadline, self.expires_at = [], [], [], []
        self.state, self.displayed_at, self.in_process = [], [], []
        self.process_alive = self.in_foreground = self.scene_active = False
        self.churned = False
        self.fg_epoch = self.screen_epoch = self.timer_epoch = 0
        self.screen = -1
        self.screen_ends = INF
        self.paused = None
        self.visit_interrupted = False
        self.run_active = self.run_interrupted = False
        self.started_onboarding = False
        self.sheets_waiting = 0
        self.sheet_showing = False
        self.quit_after = False

    # -- scheduling through SimPy

    def at(self, delay, handler, *args):
        event = self.env.timeout(delay)
        event.callbacks.append(lambda _event: handler(*args))

    def count(self):
        self.t.events += 1

    # -- the App Store

    def run(self):
        w, rng = self.w, self.store_rng
        self.t.users += 1
        is_new = rng.random() < w.new_user_share
        if is_new:
            install = w.install_start + rng.random() * (w.install_end - w.install_start)
            subscriber = rng.random() < w.returning_subscriber_share
            lapsed = False
        else:
            install = 0.0
            subscriber = rng.random() < w.subscriber_share
            lapsed = not subscriber
        self.is_new = is_new
        self.completed_onboarding = not is_new
        account_start = install if is_new and not subscriber else 0.0
        if w.consent is not None and subscriber:
            c = w.consent
            chosen = rng.random() < c["share"]
            issued = c["start"] + rng.random() * c["window"]
            if chosen and account_start <= issued < w.horizon:
                self.env.process(self.consent_campaign(issued))
        for process in w.recurring:
            audience = process["audience"]
            if (audience == "all" or (audience == "subscribers" and subscriber)
                    or (audience == "lapsed" and lapsed)):
                self.env.process(self.poisson_issuance(process, account_start))
        # An existing user meets time 0 in steady state: the first open is the gap's
        # forward-recurrence time, not a fresh gap.
        first_open = install if is_new else w.first_wait(self.journey)
        self.at(first_open, self.open)
        self.env.run(until=w.horizon)
        self.finish()

    def consent_campaign(self, issued):
        c = self.w.consent
        yield self.env.timeout(issued)
        deadline = issued + c["deadline"](self.store_rng)
        expiry = c["expiry"](self.store_rng) if c["expiry"] else INF
        self.issue(CONSENT, deadline, expiry)

    def poisson_issuance(self, process, start):
        rate = 1.0 / process["mean"]
        rng = self.store_rng
        yield self.env.timeout(start)
        while True:
            yield self.env.timeout(rng.expovariate(rate))
            expiry = process["expiry"](rng) if process["expiry"] else INF
            self.issue(process["lane"], INF, expiry)

    def issue(self, lane, deadline, expiry):
        self.count()
        now = self.env.now
        index = len(self.lane)
        self.lane.append(lane)
        self.issued_at.append(now)
        self.deadline.append(deadline)
        self.expires_at.append(now + expiry)
        self.state.append(PENDING)
        self.displayed_at.append(INF)
        self.in_process.append(False)
        self.t.issued += 1
        if expiry < INF:
            self.at(expiry, self.expire, index)
        if self.process_alive and self.in_foreground:
            self.deliver(index)

    def expire(self, index):
        if self.state[index] == PENDING:
            self.count()
            self.state[index] = EXPIRED

    def deliver(self, index):
        if self.state[index] != PENDING:
            return
        self.in_process[index] = True
        self.tell(self.coordinator.delivered(index, self.lane[index], self.env.now))

    def fetch(self, epoch):
        if epoch != self.fg_epoch or not self.in_foreground:
            return
        self.count()
        now = self.env.now
        for index in range(len(self.lane)):
            if (self.state[index] == PENDING and self.issued_at[index] <= now
                    and (self.w.delivery == "every_foreground"
                         or not self.in_process[index])):
                self.deliver(index)

    # -- sessions

    def open(self):
        if self.churned:
            return
        self.count()
        w = self.w
        self.in_foreground = True
        self.fg_epoch += 1
        epoch = self.fg_epoch
        cold = not self.process_alive
        if cold:
            self.process_alive = True
            for index in range(len(self.in_process)):
                self.in_process[index] = False
            self.coordinator.reset()
            self.show(w.cold_launch)
        else:
            self.start_dwell()
        self.at(w.activation_delay(self.scene_rng), self.scene_activates, epoch)
        now = self.env.now
        undelivered = any(self.state[i] == PENDING and not self.in_process[i]
                          and self.issued_at[i] <= now for i in range(len(self.lane)))
        # Every launch fetches; a warm resume fetches always (every_foreground), when a
        # message issued by now was not yet delivered to this process (launch_and_resume),
        # or never (launch).
        if (cold or w.delivery == "every_foreground"
                or (w.delivery == "launch_and_resume" and undelivered)):
            self.at(w.fetch_delay(self.scene_rng), self.fetch, epoch)

    def scene_activates(self, epoch):
        if epoch != self.fg_epoch or not self.in_foreground:
            return
        self.count()
        self.scene_active = True
        self.tell(self.coordinator.scene_activated(self.env.now))

    def background(self):
        w = self.w
        self.in_foreground = False
        self.scene_active = False
        self.coordinator.scene_active = False
        self.fg_epoch += 1
        self.screen_epoch += 1
        self.screen_ends = INF
        self.tell([])
        left_during_onboarding = self.run_active
        gap = w.gap(self.journey)
        if w.survival is not None:
            # A suspended process runs no code: dying during the stay is the same, for the
            # app, as dying at its start.
            terminated = w.survival(self.journey) <= gap
        else:
            terminated = self.journey.random() < w.termination
        if terminated:
            self.process_alive = False
            self.run_active = False
            self.coordinator.reset()
            self.tell([])
        if left_during_onboarding and self.journey.random() < w.never_return:
            self.churned = True
            return
        self.at(gap, self.open)

    # -- screens

    def show(self, screen):
        w = self.w
        kind = w.kinds[screen]
        previous = w.kinds[self.screen] if self.screen >= 0 else None
        self.screen = screen
        self.visit_interrupted = False
        if kind == "onboarding":
            if not self.run_active:
                self.run_active = True
                self.run_interrupted = False
                self.t.runs_started += 1
                if not self.started_onboarding and self.is_new:
                    self.started_onboarding = True
                    self.t.new_onboarding += 1
        elif self.run_active and previous == "onboarding":
            self.run_active = False
            if not self.completed_onboarding:
                self.completed_onboarding = True
                if self.is_new:
                    self.t.new_completed += 1
        self.start_dwell()
        self.tell(self.coordinator.screen_appeared(kind, self.env.now))

    def start_dwell(self):
        dwell = self.w.dwell[self.screen](self.journey)
        self.screen_epoch += 1
        if self.sheet_showing:
            self.paused = dwell
            self.screen_ends = INF
        else:
            self.screen_ends = self.env.now + dwell
            self.at(dwell, self.screen_end, self.screen_epoch)

    def screen_end(self, epoch):
        if epoch != self.screen_epoch or not self.in_foreground or self.sheet_showing:
            return
        self.count()
        w = self.w
        table = w.transitions[self.screen]
        if table is None:
            self.show(w.returning_entry if self.completed_onboarding else w.new_user_entry)
            return
        cumulative, targets = table
        target = targets[min(bisect.bisect_right(cumulative, self.journey.random()),
                             len(targets) - 1)]
        if target < 0:
            self.background()
        else:
            self.show(target)

    # -- the policy's answers: displays and its timer

    def tell(self, requests):
        for message, forced in requests:
            self.attempt(message, forced)
        coordinator = self.coordinator
        wake = coordinator.next_wake(self.env.now) if coordinator.policy.consent_ceiling else None
        self.timer_epoch += 1
        if wake is not None:
            self.at(max(wake - self.env.now, 0.0), self.timer, self.timer_epoch)

    def timer(self, epoch):
        if epoch != self.timer_epoch:
            return
        self.count()
        self.tell(self.coordinator.flush(self.env.now, False))

    def attempt(self, message, forced):
        self.t.display_attempts += 1
        success = False
        if self.in_foreground and self.scene_active:
            success = not (self.scene_rng.random() < self.w.display_failure)
        if success and self.state[message] == PENDING:
            self.display(message, forced)
        self.at(0.0, self.display_result, message, success)

    def display_result(self, message, success):
        self.count()
        self.tell(self.coordinator.display_result(message, success))

    def display(self, message, forced):
        now = self.env.now
        self.state[message] = DISPLAYED
        self.displayed_at[message] = now
        self.t.displayed += 1
        if self.lane[message] == CONSENT:
            self.t.consent_latencies.append(now - self.issued_at[message])
        if forced:
            self.t.fallback_fired += 1
        kind = self.w.kinds[self.screen]
        if kind in INTERRUPTIBLE:
            self.visit_interrupted = True
        if kind == "onboarding" and self.run_active:
            if not self.run_interrupted:
                self.run_interrupted = True
                self.t.runs_interrupted += 1
            if self.journey.random() < self.w.quit_after_sheet:
                self.quit_after = True
        self.sheets_waiting += 1
        if not self.sheet_showing:
            self.start_sheet()

    def start_sheet(self):
        self.sheets_waiting -= 1
        if not self.sheet_showing:
            self.sheet_showing = True
            if self.screen_ends < INF:
                self.paused = max(0.0, self.screen_ends - self.env.now)
                self.screen_ends = INF
                self.screen_epoch += 1
        self.at(self.w.sheet_dwell(self.sheet_rng), self.sheet_end)

    def sheet_end(self):
        self.count()
        if self.sheets_waiting > 0:
            self.start_sheet()
            return
        self.sheet_showing = False
        if self.quit_after:
            self.quit_after = False
            self.background()
            return
        if self.in_foreground and self.paused is not None:
            self.screen_epoch += 1
            self.screen_ends = self.env.now + self.paused
            self.paused = None
            self.at(self.screen_ends - self.env.now, self.screen_end, self.screen_epoch)

    # -- the horizon

    def finish(self):
        horizon = self.w.horizon
        t = self.t
        for index in range(len(self.lane)):
            state = self.state[index]
            if state == PENDING:
                t.pending += 1
            elif state == EXPIRED:
                t.expired += 1
            if self.lane[index] == CONSENT and self.deadline[index] <= horizon:
                t.deadlines_due += 1
                shown = state == DISPLAYED and self.displayed_at[index] <= self.deadline[index]
                resolved = state == EXPIRED and self.expires_at[index] <= self.deadline[index]
                if not shown and not resolved:
                    t.deadline_misses += 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", default="scenarios/indie-subscription.json")
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--replications", type=int, default=2)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--policies", default="storekit-auto,screen-gate-ceiling")
    args = parser.parse_args()
    world = World(args.scenario)
    seed = world.seed if args.seed is None else args.seed
    names = [name for name in args.policies.split(",") if name]
    for name in names:
        if name not in POLICIES:
            sys.exit("simpy_model.py: policy %r is not modelled (only %s)"
                     % (name, ", ".join(POLICIES)))
    results = {name: [] for name in names}
    events = 0
    start = time.perf_counter()
    for replication in range(args.replications):
        tallies = {name: Tally() for name in names}
        for user in range(args.users):
            for name in names:
                User(world, POLICIES[name], seed, replication, user, tallies[name]).run()
        for name in names:
            events += tallies[name].events
            results[name].append(tallies[name].metrics())
    seconds = time.perf_counter() - start
    json.dump({
        "model": "simpy",
        "simpy_version": simpy.__version__ if hasattr(simpy, "__version__") else "unknown",
        "python": sys.version.split()[0],
        "scenario": world.name,
        "users": args.users,
        "replications": args.replications,
        "seed": seed,
        "seconds": seconds,
        "events": events,
        "events_per_second": events / seconds if seconds > 0 else None,
        "policies": results,
    }, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
