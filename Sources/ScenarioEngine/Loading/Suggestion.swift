/// "Did you mean" suggestions for misspelled keys, actions, flags and commands.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance (ignoring case), if it is close enough
    /// to be a plausible typo: at most `max(2, word.count / 3)` edits away. Ties go to the
    /// candidate listed first.
    package static func closest(to word: String, in candidates: [String]) -> String? {
        let target = Array(word.lowercased())
        let threshold = max(2, target.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates where candidate != word {
            let distance = editDistance(target, Array(candidate.lowercased()))
            guard distance <= threshold else { continue }
            if best.map({ distance < $0.distance }) ?? true { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The Levenshtein distance between two strings, compared by character and ignoring case.
    package static func distance(_ a: String, _ b: String) -> Int {
        editDistance(Array(a.lowercased()), Array(b.lowercased()))
    }

    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
