/// The outcomes of a `parallel` step's copies, with copies that ended the same way reported once:
/// five copies failing alike are one check, `copies 1-5 of 5`, not five copies of one diff.
enum CopyGroups {
    /// One check per distinct outcome, in the order of its first copy, labelled with the copies
    /// it stands for (`copy 3 of 5`, `copies 1-5 of 5`, `copies 1-2, 4 of 5`).
    static func grouped(_ outcomes: [AssertionResult]) -> [AssertionResult] {
        guard outcomes.count > 1 else { return outcomes }
        var groups: [(check: AssertionResult, copies: [Int])] = []
        for (offset, outcome) in outcomes.enumerated() {
            if let index = groups.firstIndex(where: { sameOutcome($0.check, outcome) }) {
                groups[index].copies.append(offset + 1)
            } else {
                groups.append((outcome, [offset + 1]))
            }
        }
        return groups.map { group in
            var check = group.check
            check.label = label(group.copies, of: outcomes.count)
            return check
        }
    }

    /// `copy 3 of 5`, `copies 1-5 of 5`, `copies 1-2, 4 of 5`.
    static func label(_ copies: [Int], of total: Int) -> String {
        guard copies.count > 1 else { return "copy \(copies.first ?? 0) of \(total)" }
        var runs: [String] = []
        var start = copies[0]
        var previous = copies[0]
        for copy in copies.dropFirst() + [Int.min] {
            if copy == previous + 1 {
                previous = copy
                continue
            }
            runs.append(start == previous ? "\(start)" : "\(start)-\(previous)")
            start = copy
            previous = copy
        }
        return "copies \(runs.joined(separator: ", ")) of \(total)"
    }

    private static func sameOutcome(_ first: AssertionResult, _ second: AssertionResult) -> Bool {
        first.passed == second.passed && first.message == second.message && first.expected == second.expected
            && first.actual == second.actual && first.diff == second.diff && first.location == second.location
    }
}
