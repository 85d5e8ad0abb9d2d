import Testing

@testable import ScenarioEngine

@Suite("Scenario selection and sharding")
struct ScenarioSelectionTests {
    typealias Shard = ScenarioSelection.Shard

    @Test func fnv1aTestVectors() {
        #expect(Shard.stableHash("") == 0xcbf2_9ce4_8422_2325)
        #expect(Shard.stableHash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(Shard.stableHash("foobar") == 0x8594_4171_f739_67e8)
    }

    @Test func shardOfAnIdNeverChanges() {
        // Pinned: CI matrices in different processes and machines must agree on these.
        #expect(
            Shard.shardIndex(of: "blocked-user/concurrent-403s", count: 3) == Int(Shard.stableHash("blocked-user/concurrent-403s") % 3) + 1)
        #expect(Shard.shardIndex(of: "a", count: 3) == 2)
        #expect(Shard.shardIndex(of: "foobar", count: 4) == 1)
        #expect(Shard.shardIndex(of: "anything", count: 1) == 1)
    }

    @Test(arguments: [2, 3, 5])
    func shardsCoverEveryIdExactlyOnce(count: Int) throws {
        let ids = (0..<300).map { "topic-\($0 % 7)/scenario-\($0)" }
        var owners: [String: Int] = [:]
        for index in 1...count {
            let shard = try #require(Shard(index: index, count: count))
            for id in ids where shard.contains(id: id) {
                #expect(owners[id] == nil, "\(id) is in two shards")
                owners[id] = index
            }
        }
        #expect(owners.count == ids.count)
        // Not lopsided: every shard gets a fair share.
        for index in 1...count {
            #expect(owners.values.filter { $0 == index }.count > ids.count / count / 2)
        }
    }

    @Test(arguments: ["1/3", "3/3", "1/1", "10/12"])
    func parsesValidShards(text: String) {
        #expect(Shard(parsing: text)?.description == text)
    }

    @Test(arguments: ["0/3", "4/3", "1/0", "a/b", "3", "", "1/2/3", "-1/3", "1 /3"])
    func rejectsInvalidShards(text: String) {
        #expect(Shard(parsing: text) == nil)
    }

    @Test func filterMatchesIdOrName() throws {
        let selection = try ScenarioSelection(filter: "^auth/|Blocked")
        #expect(selection.decide(id: "auth/login", name: "Login", tags: []) == .run)
        #expect(selection.decide(id: "users/x", name: "User Blocked", tags: []) == .run)
        #expect(selection.decide(id: "users/y", name: "Other", tags: []) == .skip("does not match --filter ^auth/|Blocked"))
    }

    @Test func invalidFilterIsReported() {
        #expect(throws: ScenarioSelection.InvalidFilter.self) { try ScenarioSelection(filter: "(unclosed") }
    }

    @Test func tagsAreAnyOfAndSkipTagsWin() throws {
        let selection = try ScenarioSelection(tags: ["smoke", "auth"], skipTags: ["slow"])
        #expect(selection.decide(id: "a", name: "A", tags: ["auth"]) == .run)
        #expect(selection.decide(id: "b", name: "B", tags: ["other"]) == .skip("has none of the tags smoke, auth"))
        #expect(selection.decide(id: "c", name: "C", tags: ["smoke", "slow"]) == .skip("tagged slow (--skip-tag)"))
    }

    @Test func shardComesFirstAndUnloadedFilesIgnoreFilters() throws {
        let shard = try #require(Shard(index: 1, count: 2))
        let selection = try ScenarioSelection(filter: "nothing-matches", tags: ["x"], shard: shard)
        let mine = try #require((0..<50).map { "s\($0)" }.first { shard.contains(id: $0) })
        let theirs = try #require((0..<50).map { "s\($0)" }.first { !shard.contains(id: $0) })
        #expect(selection.decide(id: theirs, name: "n", tags: []) == .otherShard)
        #expect(selection.decideUnloaded(id: theirs) == .otherShard)
        #expect(selection.decideUnloaded(id: mine) == .run)
        #expect(ScenarioSelection.all.decide(id: "x", name: "y", tags: []) == .run)
    }
}
