import ScenarioEngine

/// What makes the smallest failing scenario a regression test a team commits: before the search,
/// the input fails by the kept parts alone (its other failing checks taken out, never switched
/// off); after it, what a fixed stack sends differently is tolerated (the answers the bug alone
/// used are optional) and the input's request counts that still hold come back.
extension ShrinkSearch {
    /// Takes out of the input what fails beside the kept parts: its failing expectations that
    /// are not kept, and uses of exchanges its run did not make. Returns the parts still beside
    /// the kept ones (a request no exchange matched, a stuck run): none when the input now fails
    /// by the kept parts alone.
    func isolate() async -> [FailurePart] {
        guard !same.holds(for: bestParts) else { return [] }
        acceptance = .narrowing
        finishing = true
        defer { (acceptance, finishing) = (.exact, false) }
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
        return await tolerateRetries() || changed
    }

    /// A call the backend refused (401, 429, 503) and then answered: a fixed stack may repeat it
    /// more often than the one with the bug did (each call retried once after a shared refresh,
    /// where the bug signed the user out after one), so the answer after the refusal serves it
    /// any number of times, and none.
    func tolerateRetries() async -> Bool {
        var changed = false
        for (index, exchange) in best.exchanges.enumerated() where !stopped {
            guard let status = exchange[ScenarioKey.response]?[ScenarioKey.status]?.intValue, (200...299).contains(status),
                exchange[ScenarioKey.times]?.stringValue != ScenarioKey.unlimited
            else { continue }
            let refusedBefore = best.exchanges[..<index].contains { earlier in
                [401, 429, 503].contains(earlier[ScenarioKey.response]?[ScenarioKey.status]?.intValue ?? 0)
                    && Self.sameEndpoint(earlier, exchange)
            }
            guard refusedBefore else { continue }
            var candidate = best.setting(
                ScenarioDocument.exchangePlace(index) + [.key(ScenarioKey.times)], to: .string(ScenarioKey.unlimited))
            candidate = candidate.setting(ScenarioDocument.exchangePlace(index) + [.key(ScenarioKey.optional)], to: true)
            changed = await tryAccepting(candidate) || changed
        }
        return changed
    }

    /// Whether two exchanges match the same method and path (or path pattern).
    private static func sameEndpoint(_ first: JSONValue, _ second: JSONValue) -> Bool {
        let (a, b) = (first[ScenarioKey.request], second[ScenarioKey.request])
        return a?[ScenarioKey.method] == b?[ScenarioKey.method] && a?[ScenarioKey.path] == b?[ScenarioKey.path]
            && a?[ScenarioKey.pathPattern] == b?[ScenarioKey.pathPattern]
    }

    /// The input's request counts that still hold come back, for the exchanges every run must
    /// use as scripted: what any stack that meets those answers shows, the fixed one too. Its
    /// state, alerts, timeline and step outcomes stay out: the input's run had the bug, and what it
    /// showed of it is no promise of the fix (a team adds what the fix must show). Totals and logs
    /// of requests stay out too: a fixed stack sends fewer of the requests the bug was about.
    func restoreExpectations() async -> Bool {
        let input = accepted[0]
        let required = Set(zip(best.exchangeIDs, best.exchanges).filter { $0.1[ScenarioKey.optional]?.boolValue != true }.map(\.0))
        let counts: JSONPlace = [.key(ScenarioKey.expect), .key(ScenarioKey.requests), .key(ScenarioKey.counts)]
        var restorable: [(place: JSONPlace, value: JSONValue)] = []
        for place in input.root.childPlaces(of: counts) {
            guard case .key(let id)? = place.last, required.contains(id), best[place: place] == nil, let value = input[place: place]
            else { continue }
            restorable.append((place, value))
        }
        guard !restorable.isEmpty, !stopped else { return false }
        func restoring(_ items: [(place: JSONPlace, value: JSONValue)]) -> ScenarioDocument {
            var out = best
            for item in items { out[place: item.place] = item.value }
            return out.normalized()
        }
        if await tryAccepting(restoring(restorable)) { return true }
        var changed = false
        for item in restorable where !stopped {
            changed = await tryAccepting(restoring([item])) || changed
        }
        return changed
    }
}
