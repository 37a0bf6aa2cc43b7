#!/usr/bin/env bash
# Mutation testing: applies each one-line mutation of the catalogue below to a scratch copy of
# the package, builds it, runs the tests that should catch it, and prints killed / survived
# per mutation and the score. Not part of CI (about an hour: 15 s to 2 min a mutation).
#
#   bash scripts/mutate.sh               # the whole catalogue
#   bash scripts/mutate.sh M04 M17       # only these mutations
#   bash scripts/mutate.sh --list        # the catalogue (a line marked `stale` needs updating)
#
# The scratch copy is $MUTATE_DIR (default .build/mutate/pkg): the working tree's files
# (tracked and untracked, not ignored), copied when they differ (times kept), so the
# first run builds from scratch and later runs and mutations build incrementally. The working
# tree itself is never modified. A mutation is killed when `swift test` on the selected tests
# exits non-zero (a failing expectation, a trap, or a 5-minute timeout, where the unmutated
# code takes under a minute: a mutant that makes the engine spin); it survives when every
# selected test passes, or when the filter selects no test. A catalogue line whose
# original text no longer occurs exactly once is reported `stale`, and a mutant that does not
# compile `invalid`; neither is counted.
# Results of the latest run are recorded in CONTRIBUTING.md ("Mutation score").
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
scratch=${MUTATE_DIR:-$root/.build/mutate/pkg}
export PATH=/opt/swift/usr/bin:$PATH

# id @@ file @@ test filter (swift test --filter regex) @@ original text @@ mutated text
catalogue=$(
  cat <<'EOF'
M01 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ subscriber = streams.population.bernoulli(population.returningSubscriberShare) @@ subscriber = streams.population.bernoulli(population.subscriberShare)
M02 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ case .lapsed: inAudience = lapsed @@ case .lapsed: inAudience = subscriber
M03 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ OnboardingBookkeepingTests @@ if world.onboardingRunActive { world.onboardingRunActive = false } @@ if world.onboardingRunActive { world.onboardingRunActive = true }
M04 @@ Sources/Reports/CSV/RunReport.swift @@ ReportOracleTests @@ differences.append(value - reference) @@ differences.append(reference - value)
M05 @@ Sources/Reports/CSV/RunReport+Breakdowns.swift @@ ReportOracleTests @@ .text(screen.kind.rawValue), .integer(visits), @@ .text(screen.kind.rawValue), .integer(total.screenInterrupted[index]),
M06 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ tally.hold[.priceIncreaseConsent].quantile(p) @@ tally.latency[.priceIncreaseConsent].quantile(p)
M07 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ let isNew = streams.population.bernoulli(population.newUserShare) @@ let isNew = streams.population.bernoulli(1 - population.newUserShare)
M08 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ lapsed = !subscriber @@ lapsed = true
M09 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ case .subscribers: inAudience = subscriber @@ case .subscribers: inAudience = true
M10 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ let accountStart = isNew && !subscriber ? installAt : 0 @@ let accountStart = isNew ? installAt : 0
M11 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ * (window.upperBound - window.lowerBound) @@ * (window.upperBound + window.lowerBound)
M12 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests @@ let chosen = streams.appStore.bernoulli(campaign.audienceShare) @@ let chosen = streams.appStore.bernoulli(1 - campaign.audienceShare)
M13 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ OnboardingBookkeepingTests @@ if !world.startedOnboarding, world.profile.isNew { @@ if world.profile.isNew {
M14 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ OnboardingBookkeepingTests @@ tally.onboardingRunsCompleted += 1 @@ tally.onboardingRunsCompleted += 0
M15 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ OnboardingBookkeepingTests @@ streams.journey.bernoulli(compiled.scenario.onboarding.neverReturnAfterLeavingProbability) @@ streams.journey.bernoulli(1 - compiled.scenario.onboarding.neverReturnAfterLeavingProbability)
M16 @@ Sources/Simulation/Engine/UserSimulator.swift @@ PopulationClosedFormTests|OnboardingBookkeepingTests @@ world.completedOnboarding = !onboards @@ world.completedOnboarding = false
M17 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests @@ if kind.isInterruptible, !world.visitInterrupted { @@ if kind.isInterruptible {
M18 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ EngineClosedFormTests|DeliveryOracleTests @@ return world.processAlive && world.inForeground @@ return world.processAlive
M19 @@ Sources/Simulation/Engine/UserSimulator+Arrivals.swift @@ EngineClosedFormTests|DeliveryOracleTests @@ world.process &+= 1 @@ world.process &+= 0
M20 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ DeliveryOracleTests @@ let again = compiled.scenario.sessions.delivery == .everyForeground @@ let again = false
M21 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ DeliveryOracleTests @@ if world.messages[index].deliveredAt.isNaN { world.messages[index].deliveredAt = world.now } @@ world.messages[index].deliveredAt = world.now
M22 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ EngineClosedFormTests|DeliveryOracleTests @@ recordDuration(world.now - record.deliveredAt, histogram: 1, @@ recordDuration(world.now - record.issuedAt, histogram: 1,
M23 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ EngineClosedFormTests|DeliveryOracleTests @@ tally.latencySumMilliseconds[lane] += Int64((latency * 1000).rounded()) @@ tally.latencySumMilliseconds[lane] += Int64(latency.rounded())
M24 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests @@ if forced { tally.fallbackFired += 1 } @@ if !forced { tally.fallbackFired += 1 }
M25 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests @@ tally.displayFailures += 1 @@ tally.displayFailures += 0
M26 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests @@ streams.scene.bernoulli(compiled.scenario.scene.displayFailureProbability) @@ streams.scene.bernoulli(1 - compiled.scenario.scene.displayFailureProbability)
M27 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests|EngineClosedFormTests @@ if !(world.inForeground && world.sceneActive) { @@ if !world.inForeground {
M28 @@ Sources/Simulation/Engine/UserSimulator+Display.swift @@ DeliveryOracleTests @@ tally.maxSheetsPerBreak = max(tally.maxSheetsPerBreak, world.sheetsThisBreak) @@ tally.maxSheetsPerBreak = world.sheetsThisBreak
M29 @@ Sources/Simulation/Engine/UserSimulator.swift @@ DeliveryOracleTests @@ case .expired: tally.expired[lane] += 1 @@ case .expired: tally.pending[lane] += 1
M30 @@ Sources/Simulation/Engine/UserSimulator.swift @@ DeliveryOracleTests @@ let shownInTime = record.state == .displayed && record.displayedAt <= record.deadline @@ let shownInTime = record.state == .displayed
M31 @@ Sources/Simulation/Engine/UserSimulator.swift @@ DeliveryOracleTests @@ let resolved = record.state == .expired && record.expiresAt <= record.deadline @@ let resolved = record.state == .expired
M32 @@ Sources/Simulation/Engine/UserSimulator.swift @@ DeliveryOracleTests @@ queue.push(time: time + expiry, payload: _Event(kind: .expire, index: index)) @@ queue.push(time: time + 2 * expiry, payload: _Event(kind: .expire, index: index))
M33 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ ratio(tally.onboardingRunsInterrupted, tally.onboardingRunsStarted) @@ ratio(tally.onboardingRunsInterrupted, tally.onboardingRunsCompleted)
M34 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ ratio(tally.newUsersCompleted, tally.newUsersOnboarding) @@ ratio(tally.onboardingRunsCompleted, tally.newUsersOnboarding)
M35 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ enumerated() where screen.kind == kind { @@ enumerated() where screen.kind != kind {
M36 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ Double(tally.latencySumMilliseconds[consent]) / 1000 / Double(tally.displayed[consent]) @@ Double(tally.latencySumMilliseconds[consent]) / 1000 / Double(tally.issued[consent])
M37 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ id, "consent_latency_p90_s", lane: .priceIncreaseConsent, 0.90, @@ id, "consent_latency_p90_s", lane: .priceIncreaseConsent, 0.99,
M38 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ id, "billing_latency_p90_s", lane: .billingIssue, 0.90, @@ id, "billing_latency_p90_s", lane: .priceIncreaseConsent, 0.90,
M39 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ ratio(tally.consentDeadlineMisses, tally.consentDeadlinesDue) @@ ratio(tally.consentDeadlineMisses, tally.issued[.priceIncreaseConsent])
M40 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ Double(tally.fallbackFired) * 1000 / Double(tally.users) @@ Double(tally.fallbackFired) * 100 / Double(tally.users)
M41 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ Double(tally.sheetsInBreaks) / Double(tally.breaks) @@ Double(tally.sheets) / Double(tally.breaks)
M42 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ { $0.pending.reduce(0, +) } @@ { $0.expired.reduce(0, +) }
M43 @@ Sources/Reports/Statistics/Metrics.swift @@ ReportOracleTests @@ ) { $0.displayFailures } @@ ) { $0.displayAttempts }
M44 @@ Sources/Reports/Statistics/MeanInterval.swift @@ MeanInterval|ReportOracleTests @@ gsl_cdf_tdist_Pinv(0.975, Double(n - 1)) @@ gsl_cdf_tdist_Pinv(0.95, Double(n - 1))
M45 @@ Sources/Reports/Statistics/MeanInterval.swift @@ MeanInterval|ReportOracleTests @@ (squares / Double(n - 1)) @@ (squares / Double(n))
M46 @@ Sources/Simulation/Tally/TallyFields.swift @@ TallyMergeTests|TallyFieldsTests|ShardMerge @@ mine = max(mine, theirs) @@ mine += theirs
M47 @@ Sources/Simulation/Tally/TallyFields.swift @@ TallyMergeTests|TallyFieldsTests|ShardMerge @@ visitor.histograms("hold", .perReason, &mine.hold.lanes, theirs.hold.lanes) @@ visitor.histograms("hold", .perReason, &mine.hold.lanes, theirs.latency.lanes)
M48 @@ Sources/Simulation/Tally/CounterBlock.swift @@ TallyMergeTests|ShardMerge|CounterBlock @@ + theirs.load(fromByteOffset: offset, as: Int.self) @@ + theirs.load(fromByteOffset: offset == 48 ? 56 : offset, as: Int.self)
M49 @@ Sources/Reports/CSV/RunReport+Breakdowns.swift @@ ReportOracleTests @@ .integer(total.displayed[lane]), .integer(total.expired[lane]), @@ .integer(total.displayed[lane]), .integer(total.pending[lane]),
M50 @@ Sources/Reports/CSV/RunReport+Breakdowns.swift @@ ReportOracleTests @@ row += quantiles.map { .number(total.latency[lane].quantile($0.0)) } @@ row += quantiles.map { .number(total.latency[lane].quantile(min($0.0, 0.9))) }
M51 @@ Sources/Reports/CSV/RunReport.swift @@ ReportOracleTests @@ .text(name), .integer(replication), .text(metric.name), @@ .text(name), .integer(replication + 1), .text(metric.name),
M52 @@ Sources/Reports/CSV/RunReport.swift @@ ReportOracleTests @@ .text(name), .text(metric.name), .number(interval?.mean), .number(interval?.low), @@ .text(name), .text(metric.name), .number(interval?.low), .number(interval?.mean),
M53 @@ Sources/Reports/CSV/RunReport.swift @@ ReportOracleTests @@ let reference = values[base][index][replication] @@ let reference = values[base][index][0]
M54 @@ Sources/Experiments/Partial/PartialResult+Checks.swift @@ ShardMerge|SweepShard @@ if let problem = tallies[replication][policy].mergeChecked(other[replication][policy]) { @@ tallies[replication][policy] = other[replication][policy]; if let problem = Optional<Tally.Problem>.none {
M55 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ case .boundary: return triggers.contains(.screenAppearance) @@ case .boundary: return false
M56 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ if let filter = configuration.reasonFilter, !filter.contains(reason) { return false } @@ if let filter = configuration.reasonFilter, filter.contains(reason) { return false }
M57 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ return override.allowed @@ return !override.allowed
M58 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ case .inProcessArrival: start = entry.arrivedAt @@ case .inProcessArrival: start = entry.message.firstIssuedAt
M59 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ due = min(due, deadline - margin) @@ due = min(due, deadline + margin)
M60 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ kind != .onboarding && kind != .paywall && kind != .checkout && kind != .launch @@ kind != .onboarding && kind != .paywall && kind != .checkout
M61 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ case .boundaryFirst(let grace): return max(due, entry.arrivedAt) + grace @@ case .boundaryFirst(let grace): return due + grace
M62 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ entry.retryDelay = min(entry.retryDelay * 2, backoff.maximum) @@ entry.retryDelay = entry.retryDelay * 2
M63 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ if !configuration.showsUnknownReasons, !reason.isKnown { return } @@ if !reason.isKnown { return }
M64 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ .map { max(0, $0 - shownThisBreak) } @@ .map { max(0, $0) }
M65 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ for var candidate in candidates where candidate.overdue || kept < limit { @@ for var candidate in candidates where kept < limit {
M66 @@ Sources/MessageDeferral/Coordinator+Flush.swift @@ MessageDeferralTests @@ if failure == .noActiveScene, configuration.stopsBatchWithoutScene { @@ if configuration.stopsBatchWithoutScene {
M67 @@ Sources/Simulation/Random/Sampler.swift @@ SamplerTests @@ return gsl_ran_exponential(generator, mean) @@ return gsl_ran_exponential(generator, 1 / mean)
M68 @@ Sources/Simulation/Tally/LatencyHistogram.swift @@ LatencyHistogram|ReportOracleTests @@ Int(position.rounded(.up)) @@ Int(position.rounded(.down))
M69 @@ Sources/Simulation/Engine/Engine.swift @@ ReportOracleTests @@ lane < Reason.known.count ? Reason.known[lane].name : "unknown" @@ lane < Reason.known.count - 1 ? Reason.known[lane].name : "unknown"
M70 @@ Sources/MessageDeferral/Coordinator+Listener.swift @@ ForgetsAtLaunch|SharedTrunkOracle @@ store.count == 0 && opens.capacity == 0 && batch == nil @@ store.count == 0 && batch == nil
M71 @@ Sources/Simulation/Engine/Strategies/SharedTrunk.swift @@ SharedTrunkOracle|BranchGroupOracle @@ let start = firstHeard(by: lane.coordinator, lastReset: lastReset) @@ let start = lastReset
M72 @@ Sources/MessageDeferral/PendingQueue.swift @@ PendingQueueTests|SharedTrunkOracle @@ guard lanes.contains(where: { $0.used > 0 || $0.head != 0 || $0.tombstones > 0 }) else { @@ guard lanes.contains(where: { $0.head != 0 || $0.tombstones > 0 }) else {
M73 @@ Sources/Reports/Statistics/ValueMetrics.swift @@ ValueVerdictOracle @@ parts(tally, scenario, model).reduce(0, +) @@ parts(tally, scenario, model).dropLast().reduce(0, +)
M74 @@ Sources/Experiments/Robust/RobustPlan+Outcome.swift @@ RobustRegretOracle @@ if regret > rows[policy].worstRegret { @@ if regret >= rows[policy].worstRegret {
M75 @@ Sources/Reports/Decision/Decision+Bases.swift @@ ValueVerdictOracle @@ let separated = difference.map { $0.high < 0 || $0.low > 0 } ?? false @@ let separated = difference.map { $0.mean < 0 } ?? false
M76 @@ Sources/Simulation/Engine/UserSimulator+Segments.swift @@ SegmentLatencyOracle @@ consentLatency.record(record.displayedAt - record.issuedAt) @@ consentLatency.record(record.displayedAt - record.deliveredAt)
M77 @@ Sources/Simulation/Engine/Strategies/BranchGroups.swift @@ SegmentLatencyOracle @@ record.displayedAt - record.issuedAt) @@ record.displayedAt - record.deliveredAt)
M78 @@ Sources/Reports/Statistics/ValueMetrics.swift @@ ValueVerdictOracle @@ total += tally.screenInterrupted[index] @@ total += tally.screenVisits[index]
M79 @@ Sources/MessageDeferral/PolicyCatalog+OurPresets.swift @@ deadlineAwareDoesNotInterruptOnboarding @@ [.home: .open, .settings: .open, .content: .open], otherwise: .closed) @@ [.home: .open, .settings: .open, .content: .open], otherwise: .open)
M80 @@ Sources/deferral-sim/TraceLife.swift @@ traceAgreesWithTheRunForUsersWithMessages @@ var displayed: Int { outcomes.filter { $0.outcome == .displayed }.count } @@ var displayed: Int { outcomes.filter { $0.outcome != .displayed }.count }
M81 @@ Sources/Simulation/Engine/UserSimulator.swift @@ DailyRhythmTests @@ firstOpen = rhythm.time(after: firstOpen, from: 0) @@ firstOpen = rhythm.time(after: 0, from: firstOpen)
M82 @@ Sources/Simulation/Engine/UserSimulator+Events.swift @@ DailyRhythmTests @@ return rhythm.time(after: drawn, from: world.now) - world.now @@ return drawn
M83 @@ Sources/Fitting/Scenario/ScenarioDraft+Rhythm.swift @@ FitRhythmRoundTripTests @@ existing * window[$0] + observations.newUserExposure[$0] @@ existing * window[$0]
M84 @@ Sources/Simulation/Engine/UserSimulator+Campaigns.swift @@ DailyRhythmTests @@ localTime, atOrAfter: issuedAt, shift: compiled.rhythm?.shift ?? 0) @@ localTime, atOrAfter: issuedAt, shift: 0)
M85 @@ Sources/Fitting/Scenario/ScenarioDraft+Rhythm.swift @@ FitRhythmRoundTripTests @@     gap = ScenarioFit.summarize( @@     _ = ScenarioFit.summarize(
EOF
)

# Everything below runs inside `main`, which bash reads whole before running: editing this
# file during a run does not disturb it.
main() {
if [[ ${1:-} == --list ]]; then
  # Each line with `stale` after its file when its original text does not occur exactly once.
  printf '%s\n' "$catalogue" | python3 -c '
import sys
for line in sys.stdin.read().splitlines():
    if not line:
        continue
    id, path, _, old, new = line.split(" @@ ")
    try:
        count = open(path).read().count(old)
    except OSError:
        count = 0
    mark = "" if count == 1 else "  stale (found %d times)" % count
    print("%s  %s%s\n      - %s\n      + %s" % (id, path, mark, old, new))
'
  return 0
fi
wanted=" $* "

# Copies the working tree's files (tracked and untracked, not ignored) into the scratch copy,
# only those that differ, times kept, so unchanged files are not rebuilt; removes the others.
sync_scratch() {
  local listed=$scratch/.mutate-files
  mkdir -p "$scratch"
  git -C "$root" ls-files -co --exclude-standard | grep -v '^\.build/' >"$listed"
  while IFS= read -r file; do
    [[ -f $root/$file ]] || continue
    if ! cmp -s "$root/$file" "$scratch/$file"; then
      mkdir -p "$(dirname "$scratch/$file")"
      cp -p "$root/$file" "$scratch/$file"
    fi
  done <"$listed"
  (cd "$scratch" && find Sources Tests Benchmarks -type f) | while IFS= read -r file; do
    grep -qxF "$file" "$listed" || rm -f "$scratch/$file"
  done
}

echo "mutate: scratch copy $scratch"
sync_scratch
[[ -f $scratch/Package.swift ]] || { echo "mutate: no package in $scratch" >&2; exit 1; }
cd "$scratch" || exit 1
echo "mutate: building the unmutated package ($(date -u +%H:%M:%S))"
if ! nice swift build --package-path "$scratch" --build-tests >"$scratch/.build-log" 2>&1; then
  tail -30 "$scratch/.build-log"
  echo "mutate: the unmutated package does not build" >&2
  exit 1
fi

killed=0
total=0
survivors=()
while IFS= read -r line; do
  [[ -z $line ]] && continue
  id=${line%% @@ *}
  if [[ $wanted != "  " && $wanted != *" $id "* ]]; then continue; fi
  IFS=$'\x1f' read -r _ file filter old new < <(
    printf '%s' "$line" | sed 's/ @@ /\x1f/g'
  )
  cp "$root/$file" "$scratch/$file"
  if ! python3 - "$scratch/$file" "$old" "$new" <<'PY'; then
import sys
path, old, new = sys.argv[1:4]
text = open(path).read()
if text.count(old) != 1:
    sys.exit(1)
open(path, "w").write(text.replace(old, new))
PY
    echo "$id stale     $file: the original text does not occur exactly once"
    continue
  fi
  started=$(date +%s)
  if ! nice swift build --package-path "$scratch" --build-tests >"$scratch/.build-log" 2>&1; then
    verdict="invalid (the mutant does not compile)"
  else
    total=$((total + 1))
    timeout 300 nice swift test --package-path "$scratch" --skip-build --filter "$filter" >"$scratch/.test-log" 2>&1
    status=$?
    if grep -q "with 0 tests" "$scratch/.test-log" && ! grep -q "Executed [1-9]" \
      "$scratch/.test-log"; then
      verdict="survived (no test matched '$filter')"
      survivors+=("$id")
    elif ((status != 0)); then
      verdict="killed"
      killed=$((killed + 1))
    else
      verdict="survived"
      survivors+=("$id")
    fi
  fi
  cp "$root/$file" "$scratch/$file"
  printf '%s %-9s %s (%ss, filter %s; so far killed %s of %s)\n' "$id" "${verdict%% *}" \
    "$file" "$(($(date +%s) - started))" "$filter" "$killed" "$total"
  [[ $verdict == *"("* ]] && echo "    ${verdict#* }"
  printf '    - %s\n    + %s\n' "$old" "$new"
done <<<"$catalogue"

echo
echo "Mutation score: killed $killed of $total ($(date -u +%Y-%m-%d))"
((${#survivors[@]} > 0)) && echo "Survivors: ${survivors[*]}"
return 0
}

main "$@"
exit $?
