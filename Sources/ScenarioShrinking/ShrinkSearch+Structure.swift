import ScenarioEngine

/// The passes that cut a scenario's structure: steps, exchanges, copies and uses, time. Each
/// offers candidates made from ``ShrinkSearch/best`` and returns whether anything went.
extension ShrinkSearch {
    /// Cuts what comes after the failure: the fewest steps from the start that still fail it
    /// (by bisection, so a few runs take a long session's tail off at once).
    func truncateSteps() async -> Bool {
        let units = best.stepUnits()
        guard units.count > 1 else { return false }
        let (base, uses) = (best, bestUses)
        return await lowest(in: 0...units.count) { count in base.removingSteps(units.dropFirst(count).joined(), uses: uses) }
    }

    /// Delta debugging over the steps; a `start` goes with the `await` of its handle, and each
    /// step with the uses it made of the exchanges (``ScenarioDocument/removingSteps(_:uses:)``).
    func removeSteps() async -> Bool {
        let units = best.stepUnits()
        let (base, uses) = (best, bestUses)
        return await minimize(Array(units.indices)) { kept in
            let keep = Set(kept)
            return base.removingSteps(units.indices.filter { !keep.contains($0) }.flatMap { units[$0] }, uses: uses)
        }
    }

    /// Delta debugging over the exchanges; with each goes every reference to it.
    func removeExchanges() async -> Bool {
        let ids = best.exchangeIDs
        let base = best
        return await minimize(ids) { kept in base.removingExchanges(Set(ids).subtracting(kept)) }
    }

    /// Fewer copies of a `parallel` step (and the exchanges' `times` and `whenPending` that
    /// counted them), fewer members of a `group`, fewer uses of an exchange.
    func lowerCounts() async -> Bool {
        var changed = false
        for index in best.steps.indices where !stopped {
            guard index < best.steps.count, let copies = best.steps[index][ScenarioKey.parallel]?.intValue, copies > 1 else { continue }
            let base = best
            changed = await lowest(in: 1...copies) { base.withCopies($0, of: copies, step: index) } || changed
        }
        for index in best.steps.indices.reversed() where !stopped {
            guard let members = best.steps[index][ScenarioKey.group]?.arrayValue, members.count > 1 else { continue }
            for member in members.indices.reversed() where !stopped {
                // The member alone, or with one use fewer of an exchange its step used: which of
                // them served the member the run does not say, so each is tried.
                let without = best.removing([ScenarioDocument.stepPlace(index) + [.key(ScenarioKey.group), .index(member)]])
                var candidates = [without]
                for (exchange, _) in (bestUses[index] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let position = without.exchangeIDs.firstIndex(of: exchange) else { continue }
                    let times = without.exchanges[position][ScenarioKey.times]?.intValue ?? 1
                    candidates.append(times > 1 ? without.withUses(times - 1, exchange: position) : without.removingExchanges([exchange]))
                }
                if let hit = await firstHolding(candidates) {
                    accept(candidates[hit])
                    changed = true
                }
            }
        }
        for index in best.exchanges.indices where !stopped {
            let exchange = best.exchanges[index]
            let place: JSONPlace = [.key(ScenarioKey.exchanges), .index(index)]
            if let times = exchange[ScenarioKey.times]?.intValue, times > 1 {
                let base = best
                changed = await lowest(in: 1...times) { base.withUses($0, exchange: index) } || changed
            }
            if let pending = best[place: place + [.key(ScenarioKey.release), .key(ScenarioKey.whenPending)]]?.intValue, pending > 1 {
                let base = best
                changed =
                    await lowest(in: 1...pending) {
                        base.setting(place + [.key(ScenarioKey.release), .key(ScenarioKey.whenPending)], to: .number(Double($0)))
                    }
                    || changed
            }
        }
        return changed
    }

    /// Shorter `advance` steps and `latency`, halved while the failure holds (a step or a latency
    /// that can go whole went already), and the default clock start.
    func shortenTime() async -> Bool {
        var changed = false
        for index in best.steps.indices where !stopped {
            changed = await halve([.key(ScenarioKey.steps), .index(index), .key(ScenarioKey.advance)], removable: false) || changed
        }
        for index in best.exchanges.indices where !stopped {
            changed = await halve([.key(ScenarioKey.exchanges), .index(index), .key(ScenarioKey.latency)], removable: true) || changed
        }
        if best[place: [.key(ScenarioKey.given), .key(ScenarioKey.clock)]] != nil, !stopped {
            changed = await tryAccepting(best.removing([[.key(ScenarioKey.given), .key(ScenarioKey.clock)]])) || changed
        }
        return changed
    }

    /// Halves the duration at `place` while the failure holds, trying first without it when it may go.
    private func halve(_ place: JSONPlace, removable: Bool) async -> Bool {
        guard let text = best[place: place]?.stringValue, var duration = try? DurationText.parse(text), duration > .zero else {
            return false
        }
        if removable, await tryAccepting(best.removing([place])) { return true }
        var changed = false
        while duration > .milliseconds(1), !stopped {
            let half = Duration.milliseconds(duration.nanoseconds / 2_000_000)
            guard await tryAccepting(best.setting(place, to: .string(DurationText.format(half)))) else { break }
            duration = half
            changed = true
        }
        return changed
    }
}

extension ScenarioDocument {
    /// The `parallel` step at `step` with `count` copies instead of `copies`; exchanges that
    /// served or held exactly those copies (`times`, `whenPending`) go down with them.
    func withCopies(_ count: Int, of copies: Int, step: Int) -> ScenarioDocument {
        var out = self
        out[place: [.key(ScenarioKey.steps), .index(step), .key(ScenarioKey.parallel)]] = count == 1 ? nil : .number(Double(count))
        for (index, exchange) in exchanges.enumerated() {
            if exchange[ScenarioKey.times]?.intValue == copies { out = out.withUses(count, exchange: index) }
            let pending: JSONPlace = [.key(ScenarioKey.exchanges), .index(index), .key(ScenarioKey.release), .key(ScenarioKey.whenPending)]
            if out[place: pending]?.intValue == copies { out[place: pending] = .number(Double(count)) }
        }
        return out.normalized()
    }

    /// The exchange at `index` serving `count` requests, holding no more than that many.
    func withUses(_ count: Int, exchange index: Int) -> ScenarioDocument {
        let place: JSONPlace = [.key(ScenarioKey.exchanges), .index(index)]
        var out = self
        out[place: place + [.key(ScenarioKey.times)]] = count == 1 ? nil : .number(Double(count))
        if let pending = out[place: place + [.key(ScenarioKey.release), .key(ScenarioKey.whenPending)]]?.intValue, pending > count {
            out[place: place + [.key(ScenarioKey.release), .key(ScenarioKey.whenPending)]] = .number(Double(count))
        }
        return out.normalized()
    }
}
