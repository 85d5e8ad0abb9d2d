import ScenarioEngine

/// Which exchanges served the requests each step sent, in one run: what lets the shrinker take a
/// step out together with the uses it made of each exchange (an exchange's `times` counts its
/// place in the run: a request of a later step must still meet the exchange it met before).
///
/// Read from the run's transcript (`#3 → GET /feed`, `#3 ← 200 via feed`) and where each step's
/// lines begin; `nil` when the result kept only part of the transcript.
enum ExchangeUse {
    /// Step index (0-based, as in the document) to exchange id to requests it served.
    typealias PerStep = [Int: [String: Int]]

    static func perStep(of result: ScenarioResult) -> PerStep? {
        let lines = result.transcript
        if lines.contains(where: { $0.hasPrefix("… ") }) { return nil }
        // The scenario's own steps (not `expect` or `invariants`), by where their lines begin.
        let starts = result.steps.filter { $0.label != "expect" && $0.label != "invariants" && $0.index >= 1 }
            .compactMap { step in step.firstLine.map { (line: $0, step: step.index - 1) } }
            .sorted { $0.line < $1.line }
        var sentIn: [Int: Int] = [:]
        var servedBy: [Int: String] = [:]
        for (position, line) in lines.enumerated() {
            guard let (number, event) = numbered(line) else { continue }
            if event.hasPrefix("→ "), let step = starts.last(where: { $0.line <= position })?.step {
                sentIn[number] = sentIn[number] ?? step
            } else if servedBy[number] == nil, let exchange = exchange(in: event) {
                servedBy[number] = exchange
            }
        }
        var uses: PerStep = [:]
        for (number, step) in sentIn {
            guard let exchange = servedBy[number] else { continue }
            uses[step, default: [:]][exchange, default: 0] += 1
        }
        return uses
    }

    /// `(3, "← 200 via feed ...")` from `[1.500s] #3 ← 200 via feed ...`.
    private static func numbered(_ line: String) -> (Int, Substring)? {
        guard let hash = line.firstIndex(of: "#") else { return nil }
        let rest = line[line.index(after: hash)...]
        let digits = rest.prefix { $0.isNumber }
        guard let number = Int(digits), rest.dropFirst(digits.count).first == " " else { return nil }
        return (number, rest.dropFirst(digits.count + 1))
    }

    /// The exchange an answer, a hold or a client's time-out names.
    private static func exchange(in event: Substring) -> String? {
        if event.hasPrefix("← "), let via = event.range(of: " via ") {
            return String(event[via.upperBound...].prefix { $0 != " " })
        }
        for marker in ["⏸ held by '", "('"] {
            if let start = event.range(of: marker), let end = event[start.upperBound...].firstIndex(of: "'") {
                return String(event[start.upperBound..<end])
            }
        }
        return nil
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
            root.removing(gone.map { [.key("steps"), .index($0)] }),
            stepOrigins: stepOrigins.enumerated().filter { !gone.contains($0.offset) }.map(\.element))
        guard let uses else { return out.normalized() }
        var fewer: [String: Int] = [:]
        for index in gone { for (exchange, count) in uses[index] ?? [:] { fewer[exchange, default: 0] += count } }
        var unused: Set<String> = []
        for (position, id) in exchangeIDs.enumerated() {
            guard let count = fewer[id], count > 0, exchanges[position]["optional"]?.boolValue != true else { continue }
            // `unlimited` stays as it is.
            guard let times = exchanges[position]["times"].map({ $0.intValue }) ?? 1 else { continue }
            if times <= count { unused.insert(id) } else { out = out.withUses(times - count, exchange: position) }
        }
        return out.removingExchanges(unused)
    }
}
