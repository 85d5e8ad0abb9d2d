/// A line diff for expected-vs-actual output: `-` lines are expected only, `+` actual only.
package enum TextDiff {
    /// The unified-style diff of two texts, whole (they are small); empty when equal.
    package static func lines(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard old != new else { return "" }
        // Longest common subsequence table; inputs are expectation-sized.
        var table = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                table[i][j] = old[i] == new[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var out: [String] = []
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                out.append("  " + old[i])
                i += 1
                j += 1
            } else if i < old.count, j == new.count || table[i + 1][j] >= table[i][j + 1] {
                out.append("- " + old[i])
                i += 1
            } else {
                out.append("+ " + new[j])
                j += 1
            }
        }
        return out.joined(separator: "\n")
    }
}
