import ScenarioEngine

/// What makes the smallest failing scenario a regression test a team commits: before the search,
/// the input fails by the kept parts alone (its other failing checks taken out, never switched
/// off); after it, what a fixed stack sends differently is tolerated (the answers the bug alone
/// used are optional) and the input's expectations that still hold come back.
extension ShrinkSearch {
    /// Takes out of the input what fails beside the kept parts: its failing expectations that
    /// are not kept, and uses of exchanges its run did not make. Returns the parts still beside
    /// the kept ones (a request no exchange matched, a stuck run): none when the input now fails
    /// by the kept parts alone.
    func isolate() async -> [FailurePart] {
        guard !same.holds(for: bestParts) else { return [] }
        acceptance = .narrowing
        defer { acceptance = .exact }
        _ = await pruneExpectations()
        _ = await fitUnusedExchanges()
        return bestParts.filter { !same.parts.contains($0) }
    }

    /// Each exchange the last run left unused (and that is not kept) serves what it served:
    /// its `times` lowered to that, or gone when it served nothing.
    func fitUnusedExchanges() async -> Bool {
        let unused = Set(bestParts.filter { $0.kind == .unused && !same.parts.contains($0) }.map(\.name))
        guard !unused.isEmpty else { return false }
        var served: [String: Int] = [:]
        for uses in bestUses.values { for (exchange, count) in uses { served[exchange, default: 0] += count } }
        var candidate = best
        for (index, id) in best.exchangeIDs.enumerated().reversed() where unused.contains(id) {
            let count = served[id] ?? 0
            candidate = count == 0 ? candidate.removingExchanges([id]) : candidate.withUses(count, exchange: index)
        }
        return await tryAccepting(candidate)
    }

    /// The answers to the requests a broken invariant names are the ones the bug may alone have
    /// needed (a second refresh, a call after sign-out): a fixed stack sends fewer of them, so
    /// they become optional, and an answer held until several such requests wait is released
    /// without waiting when the failure holds without the hold. Returns whether anything changed.
    func tolerateWhatTheBugAloneNeeded() async -> Bool {
        let kept = Set(same.parts.filter { $0.kind == .invariant }.map(\.name))
        let involved = Set(bestInvolved.filter { kept.contains($0.key) }.flatMap(\.value))
        guard !involved.isEmpty else { return false }
        var changed = false
        for (index, id) in best.exchangeIDs.enumerated() where involved.contains(id) && !stopped {
            let place = ScenarioDocument.exchangePlace(index)
            if best[place: place + [.key(ScenarioKey.release)]]?[ScenarioKey.whenPending] != nil {
                changed = await tryAccepting(best.setting(place + [.key(ScenarioKey.release)], to: nil)) || changed
            }
            if best[place: place + [.key(ScenarioKey.optional)]]?.boolValue != true {
                changed = await tryAccepting(best.setting(place + [.key(ScenarioKey.optional)], to: true)) || changed
            }
        }
        return changed
    }

    /// The input's expectations that still hold come back: the state, alerts and timeline it
    /// expected, the request counts of exchanges every run must use as scripted, and the
    /// outcomes of the steps that remain. Totals and logs of requests stay out: a fixed stack
    /// sends a different number of the requests the bug was about.
    func restoreExpectations() async -> Bool {
        let input = accepted[0]
        var restorable: [(place: JSONPlace, value: JSONValue)] = []
        let expect: JSONPlace = [.key(ScenarioKey.expect)]
        for key in [ScenarioKey.state] {
            for place in input.root.childPlaces(of: expect + [.key(key)]) {
                if let value = input[place: place] { restorable.append((place, value)) }
            }
        }
        for key in [ScenarioKey.alerts, ScenarioKey.timeline] {
            if let value = input[place: expect + [.key(key)]] { restorable.append((expect + [.key(key)], value)) }
        }
        let required = Set(zip(best.exchangeIDs, best.exchanges).filter { $0.1[ScenarioKey.optional]?.boolValue != true }.map(\.0))
        for place in input.root.childPlaces(of: expect + [.key(ScenarioKey.requests), .key(ScenarioKey.counts)]) {
            guard case .key(let id)? = place.last, required.contains(id), let value = input[place: place] else { continue }
            restorable.append((place, value))
        }
        for (index, origin) in best.stepOrigins.enumerated() {
            let from: JSONPlace = [.key(ScenarioKey.steps), .index(origin - 1), .key(ScenarioKey.expect)]
            guard best.steps[index][ScenarioKey.expect] == nil, let value = input[place: from] else { continue }
            restorable.append(([.key(ScenarioKey.steps), .index(index), .key(ScenarioKey.expect)], value))
        }
        guard !restorable.isEmpty, !stopped else { return false }
        func restoring(_ items: [(place: JSONPlace, value: JSONValue)], onto document: ScenarioDocument) -> ScenarioDocument {
            var out = document
            for item in items { out[place: item.place] = item.value }
            return out.normalized()
        }
        if await tryAccepting(restoring(restorable, onto: best)) { return true }
        var changed = false
        for item in restorable where !stopped {
            changed = await tryAccepting(restoring([item], onto: best)) || changed
        }
        return changed
    }
}
