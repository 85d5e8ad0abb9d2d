import ScenarioEngine
import Testing

@Suite struct SuggestionTests {
    @Test(
        arguments: [
            ("tiems", ["id", "request", "times", "after"], "times"),
            ("Times", ["times"], "times"),
            ("advnce", ["do", "advance", "await"], "advance"),
            ("reponse", ["request", "response"], "response"),
            ("--verbos", ["--verbose", "--version"], "--verbose"),
            ("xyz", ["times", "after"], nil),
            ("timeLimt", ["timeLimit", "tags"], "timeLimit"),
            ("anything", [], nil),
        ] as [(String, [String], String?)])
    func closest(word: String, candidates: [String], expected: String?) {
        #expect(Suggestion.closest(to: word, in: candidates) == expected)
    }

    @Test func distance() {
        #expect(Suggestion.distance("kitten", "sitting") == 3)
        #expect(Suggestion.distance("ABC", "abc") == 0)
        #expect(Suggestion.distance("", "abc") == 3)
    }

    @Test func thresholdGrowsWithLength() {
        // Two edits are always allowed; longer words allow a third of their length.
        #expect(Suggestion.closest(to: "unmatchedRequest", in: ["unmatchedRequests"]) == "unmatchedRequests")
        #expect(Suggestion.closest(to: "abc", in: ["xyz"]) == nil)
        #expect(Suggestion.closest(to: "unusedExchngs", in: ["unusedExchanges"]) == "unusedExchanges")
    }
}
