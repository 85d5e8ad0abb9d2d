import ScenarioEngine
import Testing

@Suite struct DurationParserTests {
    @Test(arguments: [
        ("250ms", Duration.milliseconds(250)), ("60s", .seconds(60)), ("1h", .seconds(3600)),
        ("1h30m", .seconds(5400)), ("1.5s", .milliseconds(1500)), ("0ms", .zero), ("0.25ms", .microseconds(250)),
        ("2m3s4ms", .milliseconds(123_004)), ("0.1s", .milliseconds(100)), ("1.000000001s", .nanoseconds(1_000_000_001)),
    ])
    func valid(text: String, expected: Duration) throws {
        #expect(try DurationText.parse(text) == expected)
    }

    @Test(arguments: [
        ("250", #"duration "250" has no unit; say which, such as "250ms" or "250s""#),
        ("", #"empty duration; write a number with a unit (ms, s, m, h), such as "250ms", "60s" or "1h30m""#),
        ("-5s", #"durations cannot be negative; got "-5s""#),
        ("5d", #"unknown unit 'd' in duration "5d"; units are ms, s, m and h"#),
        ("5 s", #"unexpected character in duration "5 s"; write a number with a unit (ms, s, m, h), such as "250ms", "60s" or "1h30m""#),
        ("s", #"expected a number in duration "s"; write a number with a unit (ms, s, m, h), such as "250ms", "60s" or "1h30m""#),
        ("1.s", #"malformed number in duration "1.s"; write a number with a unit (ms, s, m, h), such as "250ms", "60s" or "1h30m""#),
        ("30m1h", #"units in duration "30m1h" must each appear once, largest first (h, m, s, ms)"#),
        ("1s1s", #"units in duration "1s1s" must each appear once, largest first (h, m, s, ms)"#),
        ("1h30", #"duration "1h30" has no unit; say which, such as "30ms" or "30s""#),
        ("99999999999999h", #"duration "99999999999999h" is too long; the longest is 2562047h (292 years)"#),
    ])
    func invalid(text: String, message: String) {
        #expect {
            _ = try DurationText.parse(text)
        } throws: { error in
            (error as? DurationText.Failure)?.description == message
        }
    }

    @Test(arguments: [
        (Duration.milliseconds(250), "250ms"), (.seconds(5400), "1h30m"), (.milliseconds(1500), "1s500ms"), (.zero, "0ms"),
    ])
    func formatting(duration: Duration, text: String) throws {
        #expect(DurationText.format(duration) == text)
        #expect(try DurationText.parse(text) == duration)
    }

    /// Durations beyond `Int64` nanoseconds are written at that bound, never trapping.
    @Test func formattingTheLongestDurationsDoesNotTrap() {
        #expect(DurationText.format(.seconds(Int64.max)) == DurationText.format(.nanoseconds(Int64.max)))
        #expect(DurationText.format(.seconds(Int64.min)) == "-" + DurationText.format(.nanoseconds(Int64.max)))
    }
}

/// What the previous release's example drivers wrote still builds and reads the same: a team that
/// copied them keeps building.
@Suite struct PreviousReleaseSpellingTests {
    @Test func durationParserReadsAsDurationScenarioTextDoes() throws {
        let old: any OldDurationSpelling = OldDriverCode()
        #expect(try old.interval("1h30m") == .seconds(5400))
        #expect(try old.interval("250ms") == .milliseconds(250))
        #expect(throws: (any Error).self) { try old.interval("250") }
    }

    @Test func anObjectsMembersAndAScheduleBySeedAndIndexArePublic() {
        let object: JSONObject = ["b": 1, "a": 2]
        #expect(object.members.map(\.key) == ["b", "a"])
        #expect(JobSchedule(seed: 7, index: 3) == JobSchedule(parsing: "7:3"))
    }
}

private protocol OldDurationSpelling {
    func interval(_ text: String) throws -> Duration
}

/// Calls the deprecated spelling from a deprecated member, reached through the protocol as the
/// test calls it: the build stays free of warnings.
private struct OldDriverCode: OldDurationSpelling {
    @available(*, deprecated, message: "the previous release's spelling, on purpose")
    func interval(_ text: String) throws -> Duration { try DurationParser.parse(text) }
}
