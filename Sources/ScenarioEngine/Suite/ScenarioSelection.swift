import Foundation

/// Which scenarios a run takes: a shard of the whole set, then a name filter and tags.
///
/// Scenarios outside the shard belong to another CI job and are left out of this run entirely;
/// scenarios the filter or tags leave out are reported as skipped.
package struct ScenarioSelection: Sendable {
    /// What happens to one scenario.
    package enum Decision: Sendable, Hashable {
        /// It runs.
        case run
        /// It is reported as skipped, for this reason.
        case skip(String)
        /// It belongs to another shard and is not reported here.
        case otherShard
    }

    /// A regular expression searched for in each scenario's id and name (either may match).
    package private(set) var filter: String?
    /// Tags a scenario must have at least one of (empty: no requirement).
    package var tags: [String]
    /// Tags that skip a scenario that has any of them.
    package var skipTags: [String]
    /// The slice of scenarios this run owns.
    package var shard: Shard?

    private let regex: FilterPattern?

    /// Creates a selection.
    /// - Throws: ``InvalidFilter`` when `filter` is not a valid regular expression.
    package init(filter: String? = nil, tags: [String] = [], skipTags: [String] = [], shard: Shard? = nil) throws(InvalidFilter) {
        var regex: FilterPattern?
        if let filter {
            guard let compiled = FilterPattern(filter) else {
                throw InvalidFilter(pattern: filter, reason: FilterPattern.problem(in: filter))
            }
            regex = compiled
        }
        self.init(filter: filter, regex: regex, tags: tags, skipTags: skipTags, shard: shard)
    }

    private init(filter: String?, regex: FilterPattern?, tags: [String], skipTags: [String], shard: Shard?) {
        self.filter = filter
        self.regex = regex
        self.tags = tags
        self.skipTags = skipTags
        self.shard = shard
    }

    /// Every scenario runs: no shard, filter or tags.
    package static var all: ScenarioSelection {
        ScenarioSelection(filter: nil, regex: nil, tags: [], skipTags: [], shard: nil)
    }

    /// Whether deciding needs a scenario's name or tags, so its file must be read first.
    package var needsContent: Bool { regex != nil || !tags.isEmpty || !skipTags.isEmpty }

    /// Decides a loaded scenario's fate.
    package func decide(id: String, name: String, tags scenarioTags: [String]) -> Decision {
        if let shard, !shard.contains(id: id) { return .otherShard }
        if let regex, !regex.matches(id), !regex.matches(name) {
            return .skip("does not match --filter \(filter ?? "")")
        }
        if !tags.isEmpty, !scenarioTags.contains(where: tags.contains) {
            return .skip("has none of the tags \(tags.joined(separator: ", "))")
        }
        if let tag = scenarioTags.first(where: skipTags.contains) {
            return .skip("tagged \(tag) (--skip-tag)")
        }
        return .run
    }

    /// Decides the fate of a file that did not load: only the shard applies, because a
    /// filter or tag cannot vouch for a file nobody could read, so a broken file always shows.
    package func decideUnloaded(id: String) -> Decision {
        if let shard, !shard.contains(id: id) { return .otherShard }
        return .run
    }

    /// A `--filter` pattern that is not a valid regular expression.
    package struct InvalidFilter: Error, Sendable, Hashable, CustomStringConvertible {
        /// The pattern as given.
        package var pattern: String
        /// What the regular expression engine said.
        package var reason: String

        /// `invalid regular expression 'PATTERN': REASON`.
        package var description: String { "invalid regular expression '\(pattern)': \(reason)" }
    }

    /// Shard `index` of `count` (1-based): a stable partition by scenario id.
    ///
    /// The partition hashes the id with 64-bit FNV-1a (not Swift's per-process seeded `Hasher`),
    /// so every CI job computes the same split without talking to the others.
    package struct Shard: Sendable, Hashable, CustomStringConvertible {
        /// 1-based index of this shard.
        package let index: Int
        /// How many shards there are.
        package let count: Int

        /// Creates shard `index` of `count`, or `nil` unless `1 <= index <= count`.
        package init?(index: Int, count: Int) {
            guard count >= 1, (1...count).contains(index) else { return nil }
            self.index = index
            self.count = count
        }

        /// Parses `I/N`, such as `2/3`.
        package init?(parsing text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
            self.init(index: index, count: count)
        }

        /// Whether the scenario with this id belongs to this shard.
        package func contains(id: String) -> Bool {
            Self.shardIndex(of: id, count: count) == index
        }

        /// The 1-based shard an id falls in when the set is split `count` ways.
        package static func shardIndex(of id: String, count: Int) -> Int {
            guard count > 1 else { return 1 }
            return Int(stableHash(id) % UInt64(count)) + 1
        }

        /// 64-bit FNV-1a of the UTF-8 bytes: the same on every machine and every run.
        package static func stableHash(_ text: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01b3
            }
            return hash
        }

        /// `I/N`.
        package var description: String { "\(index)/\(count)" }
    }

    /// A compiled `--filter` (ICU syntax, as `NSRegularExpression` reads it).
    private struct FilterPattern: Sendable {
        private let expression: NSRegularExpression

        init?(_ pattern: String) {
            guard let expression = try? NSRegularExpression(pattern: pattern) else { return nil }
            self.expression = expression
        }

        func matches(_ text: String) -> Bool {
            expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }

        /// Foundation only says "the value is invalid"; Swift's own regex parser says where.
        static func problem(in pattern: String) -> String {
            do {
                _ = try Regex(pattern)
            } catch {
                return String(describing: error)
            }
            return "not a valid regular expression"
        }
    }
}
