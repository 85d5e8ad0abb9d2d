import ScenarioEngine

/// The passes that cut details: members of matchers, answers and `given`, the expectations
/// that are no part of the failure kept, and the schedule.
extension ShrinkSearch {
    /// Headers, query items and JSON members of matchers and answers, and members of `given`,
    /// level by level: a member that stays is tried member by member below it.
    func pruneMembers() async -> Bool {
        var level: [JSONPlace] = []
        for index in best.exchanges.indices {
            let exchange: JSONPlace = [.key(ScenarioKey.exchanges), .index(index)]
            for part in [ScenarioKey.request, ScenarioKey.response] {
                for key in [ScenarioKey.headers, ScenarioKey.query, ScenarioKey.json, ScenarioKey.text]
                where best[place: exchange + [.key(part), .key(key)]] != nil {
                    level.append(exchange + [.key(part), .key(key)])
                }
            }
        }
        level += best.root.childPlaces(of: [.key(ScenarioKey.given)]).filter {
            $0 != [.key(ScenarioKey.given), .key(ScenarioKeys.givenClock)]
        }
        var changed = false
        while !level.isEmpty, !stopped {
            let base = best
            let places = level
            changed = await minimize(places) { kept in base.removing(places.filter { !kept.contains($0) }) } || changed
            let survivors = places.filter { best[place: $0] != nil }
            level = survivors.flatMap { best.root.childPlaces(of: $0) }
        }
        return changed
    }

    /// Expectations that are not part of the failure kept: the result keeps the checks that fail
    /// that way (and a `check` step with nothing left goes).
    func pruneExpectations() async -> Bool {
        var items: [JSONPlace] = []
        func expectations(at place: JSONPlace) {
            items += best.root.childPlaces(of: place + [.key(ScenarioKey.state)])
            for key in [ScenarioKey.alerts, ScenarioKey.timeline] where best[place: place + [.key(key)]] != nil {
                items.append(place + [.key(key)])
            }
            for key in [ScenarioKey.total, ScenarioKey.log] where best[place: place + [.key(ScenarioKey.requests), .key(key)]] != nil {
                items.append(place + [.key(ScenarioKey.requests), .key(key)])
            }
            items += best.root.childPlaces(of: place + [.key(ScenarioKey.requests), .key(ScenarioKey.counts)])
        }
        expectations(at: [.key(ScenarioKey.expect)])
        for (index, step) in best.steps.enumerated() {
            let place: JSONPlace = [.key(ScenarioKey.steps), .index(index)]
            if step[ScenarioKey.check] != nil { expectations(at: place + [.key(ScenarioKey.check)]) }
            if step[ScenarioKey.expect] != nil { items.append(place + [.key(ScenarioKey.expect)]) }
            for (member, call) in (step[ScenarioKey.group]?.arrayValue ?? []).enumerated() where call[ScenarioKey.expect] != nil {
                items.append(place + [.key(ScenarioKey.group), .index(member), .key(ScenarioKey.expect)])
            }
        }
        items += best.root.childPlaces(of: [.key(ScenarioKey.invariants), .key(ScenarioKey.add)])
        let base = best
        return await minimize(items) { kept in base.removing(items.filter { !kept.contains($0) }) }
    }

    /// The fewest departures from first in, first out that still fail (none at all when the
    /// scenario now fails in that order).
    func shrinkSchedule() async -> Bool {
        guard let explicit = schedule.explicit, !explicit.isEmpty, !stopped else { return false }
        let departures = explicit.departures
        let document = best
        let kept = await DeltaDebugging.minimize(departures) { subsets in
            await firstHolding(subsets.map { (document, JobSchedule(ExplicitSchedule($0))) })
        }
        guard kept.count < departures.count else { return false }
        adopt(JobSchedule(ExplicitSchedule(kept)))
        return true
    }
}
