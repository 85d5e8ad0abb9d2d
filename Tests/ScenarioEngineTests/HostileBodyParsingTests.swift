import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// The engine reads every reply body too (transcripts, matching, secrets): no body crashes it.
@Suite struct HostileBodyParsingTests {
    @Test func aHundredThousandHostileBodiesParseOrAreRefused() async {
        // Minutes of CPU under the thread sanitizer: on a thread of its own, not on one of the
        // few dispatch workers that URLSession's queues share with every test running beside it.
        let parsed = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread { done.resume(returning: Self.parseHostileBodies()) }.start()
        }
        #expect(parsed > 100)
    }

    /// Parses and describes 100,000 seeded hostile bodies; returns how many parsed as JSON.
    private static func parseHostileBodies() -> Int {
        var random = SplitMix64(seed: 77)
        func next() -> UInt64 { random.next() }
        let alphabet = Array(#"[]{}":,0123456789.eE-+ truefalsn\u"#.utf8) + [0xFF, 0xC0, 0x00, 0xE2]
        var parsed = 0
        for round in 0..<100_000 {
            let body: Data
            if round < 2_400 {
                // Every depth around the limits, bare and closed.
                let depth = round / 2 + 1
                body = Data((String(repeating: "[", count: depth) + (round % 2 == 0 ? "" : String(repeating: "]", count: depth))).utf8)
            } else {
                let length = Int(next() % 64)
                body = Data((0..<length).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
            }
            if JSONValue.parse(body) != nil { parsed += 1 }
            _ = Transcript.describeBody(body)
        }
        return parsed
    }
}
