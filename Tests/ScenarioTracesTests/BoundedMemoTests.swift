import ScenarioTestSupport
import Testing

@testable import ScenarioEngine
@testable import ScenarioTraces

/// The memo behind the trace reader's and redactor's caches: short keys are answered once,
/// long ones every time, and it stops growing at its bound.
@Suite struct BoundedMemoTests {
    @Test func remembersShortKeysUpToItsBoundAndNeverLongOnes() {
        var memo = BoundedMemo<String, Int>(maximumCount: 2, maximumKeyBytes: 4)
        var made = 0
        func value(_ key: String) -> Int {
            memo.value(for: key) {
                made += 1
                return made
            }
        }
        #expect(value("a") == 1)
        #expect(value("a") == 1)
        #expect(value("b") == 2)
        // Full: a third key is answered but not kept.
        #expect(value("c") == 3)
        #expect(value("c") == 4)
        // Over four bytes: never kept.
        #expect(value("éé€") == 5)
        #expect(value("éé€") == 6)
        #expect(value("b") == 2)
    }
}
