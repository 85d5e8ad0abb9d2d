import Foundation
import HTTPCore
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// A program that runs scenarios starts again with deterministic hashing, so a stack that walks a
/// Dictionary or Set (FoundationNetworking's `invalidateAndCancel()` does) takes one order on every
/// run; and a repeat that differs says so where hashing is random.
@Suite struct DeterministicHashingTests {
    @Test(.enabled(if: TestProcess.isAvailable)) func aProgramWithoutItStartsAgainWithIt() throws {
        try TestProcess.expectPasses(
            "DeterministicHashingTests/probe", environment: [DeterministicHashing.variable: nil, "SCENARIO_HASHING_PROBE": "1"])
    }

    /// Run in a process of its own started without the variable: it comes back only once the
    /// program has started again with it, and then dictionaries are walked alike.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SCENARIO_HASHING_PROBE"] == "1")) func probe() {
        DeterministicHashing.startAgainIfOff()
        #expect(DeterministicHashing.isOn)
        #expect(Self.ordersOfEqualDictionaries() == 1)
    }

    /// Where hashing is random, equal dictionaries at different addresses are walked differently:
    /// what the program starting again is for.
    @Test(.enabled(if: !DeterministicHashing.isOn)) func randomHashingWalksEqualDictionariesDifferently() {
        #expect(Self.ordersOfEqualDictionaries() > 1)
    }

    /// How many orders eight dictionaries of the same keys, filled alike, are walked in.
    private static func ordersOfEqualDictionaries() -> Int {
        let keys = (0..<64).map { "task-\($0)" }
        let dictionaries = (0..<8).map { _ in Dictionary(uniqueKeysWithValues: keys.map { ($0, 0) }) }
        return Set(dictionaries.map { Array($0.keys) }).count
    }

    @Test func aDifferingRepeatNamesDictionaryOrderWhereHashingIsRandom() {
        func outcome(_ path: String) -> RunOutcome {
            var record = RunRecord()
            _ = record.sent(HTTPRequest(method: .get, path: path), exchange: nil, at: .zero)
            return RunOutcome(
                result: ScenarioResult(id: "s", name: "s", file: "s.json", status: .passed), record: record,
                redactor: SecretRedactor(secrets: []), divergence: nil)
        }
        let message = ScenarioRunner.nondeterminism(outcome("/a"), outcome("/b"), run: 2, location: nil)?.message ?? ""
        #expect(message.contains("first differing event is 1 of 1"))
        #expect(message.contains("SWIFT_DETERMINISTIC_HASHING=1") == !DeterministicHashing.isOn)
    }
}
