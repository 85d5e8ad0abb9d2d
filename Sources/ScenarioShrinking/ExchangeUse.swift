import ScenarioEngine

/// Which exchanges served the requests each step sent, in one run: what lets the shrinker take a
/// step out together with the uses it made of each exchange (an exchange's `times` counts its
/// place in the run: a request of a later step must still meet the exchange it met before).
/// Read from the run's record, as its result carries it, whether the run was in this process
/// or a worker's.
enum ExchangeUse {
    /// Step index (0-based, as in the document) to exchange id to requests it served.
    typealias PerStep = [Int: [String: Int]]

    static func perStep(of result: ScenarioResult) -> PerStep {
        PerStep(uniqueKeysWithValues: result.exchangeUse.map { ($0.key - 1, $0.value) })
    }
}

extension ScenarioDocument {
    /// Without the steps at `indices`, and without the uses they made of each exchange (`uses`,
    /// from a run of this document): an exchange used by nothing else goes, with every reference
    /// to it; one used by other steps too serves that many fewer.
    func removingSteps(_ indices: some Collection<Int>, uses: ExchangeUse.PerStep?) -> ScenarioDocument {
        // Steps first: what normalizing takes out after (an emptied `check`) must not move them.
        let gone = Set(indices)
        var out = ScenarioDocument(
            root.removing(gone.map { [.key(ScenarioKey.steps), .index($0)] }),
            stepOrigins: stepOrigins.enumerated().filter { !gone.contains($0.offset) }.map(\.element))
        guard let uses else { return out.normalized() }
        var fewer: [String: Int] = [:]
        for index in gone { for (exchange, count) in uses[index] ?? [:] { fewer[exchange, default: 0] += count } }
        var unused: Set<String> = []
        for (position, id) in exchangeIDs.enumerated() {
            guard let count = fewer[id], count > 0, exchanges[position][ScenarioKey.optional]?.boolValue != true else { continue }
            // `unlimited` stays as it is.
            guard let times = exchanges[position][ScenarioKey.times].map({ $0.intValue }) ?? 1 else { continue }
            if times <= count { unused.insert(id) } else { out = out.withUses(times - count, exchange: position) }
        }
        return out.removingExchanges(unused)
    }
}
