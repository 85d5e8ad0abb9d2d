import Foundation
import ScenarioEngine
import ScenarioTraces
import Testing

/// The HAR reader is lenient with what exporters vary in and precise about what it cannot read.
@Suite struct HARReaderTests {
    static func read(_ text: String, maximumBytes: Int = HARReader.maximumBytes, maximumEntries: Int = HARReader.maximumEntries)
        throws(LoadIssue) -> HARLog
    {
        try HARReader(file: "t.har", maximumBytes: maximumBytes, maximumEntries: maximumEntries).read(Data(text.utf8))
    }

    static func issue(_ text: String, maximumBytes: Int = HARReader.maximumBytes, maximumEntries: Int = HARReader.maximumEntries)
        -> LoadIssue?
    {
        do {
            _ = try read(text, maximumBytes: maximumBytes, maximumEntries: maximumEntries)
            return nil
        } catch {
            return error
        }
    }

    static let entry =
        #"{"startedDateTime":"2026-01-01T00:00:00Z","time":5,"request":{"method":"get","url":"https://h/a"},"response":{"status":200}}"#

    @Test func optionalFieldsMayBeMissingAndNegativeTimingsCountAsZero() throws {
        let log = try Self.read(
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://h/x","headers":[{"name":":authority","value":"h"},{"name":"A","value":"1"}]},"time":-1,"timings":{"wait":-1,"send":3},"_custom":{"x":1}}]}}"#
        )
        let entry = try #require(log.entries.first)
        #expect(entry.time == 3)
        #expect(entry.response == nil)
        // HTTP/2 pseudo-headers are not fields a client sets.
        #expect(entry.request.headers == [HARLog.Field("A", "1")])
        #expect(entry.request.method == "GET")
    }

    @Test func base64BodiesAreDecodedAndStatusZeroMeansNoResponse() throws {
        let log = try Self.read(
            #"{"log":{"entries":[{"request":{"method":"GET","url":"https://h/x"},"response":{"status":200,"content":{"text":"aGk=","encoding":"base64"}}},{"request":{"method":"GET","url":"https://h/y"},"response":{"status":0,"_error":"net::ERR_FAILED"}}]}}"#
        )
        #expect(log.entries[0].response?.body == Data("hi".utf8))
        #expect(log.entries[1].response == nil)
    }

    @Test func instantsWithMicrosecondsAndOffsetsAreRead() throws {
        let log = try Self.read(
            #"{"log":{"entries":[{"startedDateTime":"2026-03-02T13:00:00.250000+01:00","request":{"method":"GET","url":"https://h/x"}}]}}"#
        )
        let expected = try #require(ISO8601DateFormatter().date(from: "2026-03-02T12:00:00Z"))
        let started = try #require(log.entries.first?.started)
        #expect(abs(started.timeIntervalSince(expected) - 0.25) < 0.001)
    }

    @Test func formParametersWithoutTextAreJoinedBackIntoABody() throws {
        let log = try Self.read(
            #"{"log":{"entries":[{"request":{"method":"POST","url":"https://h/x","postData":{"mimeType":"application/x-www-form-urlencoded","params":[{"name":"a b","value":"1&2"},{"name":"c","value":"3"}]}}}]}}"#
        )
        #expect(log.entries.first?.request.body == "a%20b=1%262&c=3")
    }

    @Test func truncatedTextIsASyntaxErrorWithItsPlace() throws {
        let issue = try #require(Self.issue("{\"log\":{\"entries\":[\n" + Self.entry.dropLast(10)))
        #expect(issue.location.file == "t.har")
        #expect(issue.location.line == 2)
        #expect(issue.description.hasPrefix("t.har:2:"))
    }

    @Test func anEmptyFileSaysSo() throws {
        let issue = try #require(Self.issue(" \n"))
        #expect(issue.message == "the file is empty")
    }

    @Test func wrongTypesNameTheirJSONPath() throws {
        let entries = try #require(Self.issue(#"{"log":{"entries":"none"}}"#))
        #expect(entries.location.path == "$.log.entries")
        #expect(entries.message == "expected an array of entries, found a string")
        #expect(entries.location.column == 19)
        let method = try #require(Self.issue(#"{"log":{"entries":[{"request":{"method":7,"url":"u"}}]}}"#))
        #expect(method.location.path == "$.log.entries[0].request.method")
        #expect(method.message == "expected a string, found a number")
        let status = try #require(Self.issue(#"{"log":{"entries":[{"request":{"method":"GET","url":"u"},"response":{"status":"200"}}]}}"#))
        #expect(status.location.path == "$.log.entries[0].response.status")
        let headers = try #require(Self.issue(#"{"log":{"entries":[{"request":{"method":"GET","url":"u","headers":{}}}]}}"#))
        #expect(headers.location.path == "$.log.entries[0].request.headers")
    }

    @Test func somethingThatIsNotHARSaysWhatIsMissing() throws {
        let issue = try #require(Self.issue(#"{"name":"a scenario"}"#))
        #expect(issue.message == "missing 'log' (an object)")
        #expect(issue.hint?.contains("HAR") == true)
        let bad64 = try #require(
            Self.issue(
                #"{"log":{"entries":[{"request":{"method":"GET","url":"u"},"response":{"status":200,"content":{"text":"%%%","encoding":"base64"}}}]}}"#
            ))
        #expect(bad64.location.path == "$.log.entries[0].response.content.text")
    }

    @Test func deepNestingIsRefusedNotRecursedInto() throws {
        let deep = #"{"log":{"entries":[{"request":{"method":"GET","url":"u"},"_x":"# + String(repeating: "[", count: 100_000)
        let issue = try #require(Self.issue(deep))
        #expect(issue.message.contains("deep"))
    }

    @Test func hugeFilesAndEntryCountsAreBounded() throws {
        let text = #"{"log":{"entries":["# + Array(repeating: Self.entry, count: 5).joined(separator: ",") + "]}}"
        let bytes = try #require(Self.issue(text, maximumBytes: 100))
        #expect(bytes.message.contains("more than the 100 a trace may have"))
        let count = try #require(Self.issue(text, maximumEntries: 4))
        // Said at the first entry too many, while reading: the rest of the file is never parsed.
        #expect(count.message == "more than the 4 entries a trace may have")
        #expect(count.location.path == "$.log.entries[4]")
        #expect(try Self.read(text, maximumEntries: 5).entries.count == 5)
    }

    @Test func aWrittenLogReadsBackTheSame() throws {
        let log = HARLog(
            creator: "t",
            entries: [
                HARLog.Entry(
                    started: Date(timeIntervalSince1970: 1_767_225_600.5), time: 12,
                    request: HARLog.Request(
                        method: "POST", url: "https://h/a?q=1", headers: [HARLog.Field("A", "b")], body: "{}", mimeType: "application/json"),
                    response: HARLog.Response(status: 200, headers: [HARLog.Field("C", "d")], body: Data([0xFF, 0x00]), mimeType: "x/y")),
                HARLog.Entry(
                    started: Date(timeIntervalSince1970: 1_767_225_601), time: 0,
                    request: HARLog.Request(method: "GET", url: "https://h/b"), response: nil),
            ])
        let again = try HARReader(file: "w").read(log.harDocument().data)
        #expect(again == log)
        // The text written entry by entry is the same document.
        let streamed = log.harText()
        #expect(JSONValue.parse(Data(streamed.utf8)) == log.harDocument())
        #expect(try HARReader(file: "w").read(Data(streamed.utf8)) == log)
        #expect(JSONValue.parse(Data(HARLog(creator: "t").harText().utf8)) == HARLog(creator: "t").harDocument())
    }
}

/// Exporters' timing quirks, read as what they mean.
@Suite struct HARTimingQuirkTests {
    @Test func aTimeInSecondsNextToTimingsInMillisecondsIsMilliseconds() throws {
        let log = try HARReaderTests.read(
            #"{"log":{"entries":[{"startedDateTime":"2026-01-01T00:00:00.250Z","time":0.12,"timings":{"send":20,"wait":90,"receive":10},"request":{"method":"GET","url":"https://h/a"}}]}}"#
        )
        #expect(log.entries[0].time == 120)
        #expect(log.entries[0].started == TraceImporterTests.origin.addingTimeInterval(0.25))
    }

    @Test func requestsHARStartsAtTheResponseAndCountsSeconds() throws {
        let log = try HARReaderTests.read(
            #"{"log":{"creator":{"name":"requests-har"},"entries":[{"startedDateTime":"2026-01-01T00:00:01.000+00:00","time":0.5,"timings":{"send":0,"wait":0,"receive":0.5},"request":{"method":"GET","url":"https://h/a"}}]}}"#
        )
        #expect(log.entries[0].time == 500)
        #expect(log.entries[0].started == TraceImporterTests.origin.addingTimeInterval(0.5))
        // Written back (as `redact` does) and read again, the times are corrected once only.
        let again = try HARReaderTests.read(log.harText())
        #expect(again.entries[0].time == 500)
        #expect(again.entries[0].started == TraceImporterTests.origin.addingTimeInterval(0.5))
    }

    /// Playwright's attach mode keeps bodies in files beside the capture: read from there,
    /// by plain name only, and counted when missing.
    @Test func attachedBodiesAreReadFromBesideTheCapture() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attached-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"posts":[]}"#.utf8).write(to: folder.appendingPathComponent("fb49.json"))
        let text = #"""
            {"log":{"creator":{"name":"Playwright"},"entries":[
            {"startedDateTime":"2026-01-01T00:00:00.000Z","request":{"method":"POST","url":"https://h/feed","postData":{"mimeType":"application/json","text":"","_file":"4083.json"}},
             "response":{"status":200,"content":{"mimeType":"application/json","_file":"fb49.json"}}},
            {"startedDateTime":"2026-01-01T00:00:01.000Z","request":{"method":"GET","url":"https://h/x"},
             "response":{"status":200,"content":{"mimeType":"text/plain","_file":"../fb49.json"}}}]}}
            """#
        let log = try HARReader(file: folder.appendingPathComponent("capture.har").path).read(Data(text.utf8))
        #expect(log.entries[0].response?.body == Data(#"{"posts":[]}"#.utf8))
        #expect(log.entries[1].response?.body.isEmpty == true, "a path is never followed")
        #expect(log.attachedBodiesNotFound == 2)

        // Nor a link to a file elsewhere, and all of them together stay within the trace's bound.
        let outside = FileManager.default.temporaryDirectory.appendingPathComponent("outside-\(UUID().uuidString)")
        try Data("private".utf8).write(to: outside)
        defer { try? FileManager.default.removeItem(at: outside) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("fb49.json").path + ".link", withDestinationPath: outside.path)
        let linked = text.replacingOccurrences(of: #""_file":"fb49.json""#, with: #""_file":"fb49.json.link""#)
        let refused = try HARReader(file: folder.appendingPathComponent("capture.har").path).read(Data(linked.utf8))
        #expect(refused.entries[0].response?.body.isEmpty == true)
        try Data(repeating: UInt8(ascii: "x"), count: 3000).write(to: folder.appendingPathComponent("big.txt"))
        let twice = #"""
            {"log":{"entries":[
            {"startedDateTime":"2026-01-01T00:00:00.000Z","request":{"method":"GET","url":"https://h/a"},"response":{"status":200,"content":{"_file":"big.txt"}}},
            {"startedDateTime":"2026-01-01T00:00:01.000Z","request":{"method":"GET","url":"https://h/b"},"response":{"status":200,"content":{"_file":"big.txt"}}}]}}
            """#
        let bounded = try HARReader(file: folder.appendingPathComponent("capture.har").path, maximumBytes: 4096).read(Data(twice.utf8))
        #expect(bounded.entries.map { $0.response?.body.count } == [3000, 0])
        #expect(bounded.attachedBodiesNotFound == 1)
    }

    @Test func instantsReadFastAgreeWithTheFormatter() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for text in [
            "2026-03-01T12:34:56.789Z", "1999-12-31T23:59:59.5+05:30", "2024-02-29T00:00:00.123456-08:00", "1900-03-01T00:00:00.000Z",
        ] {
            let expected = try #require(formatter.date(from: text.replacingOccurrences(of: ".123456", with: ".123")))
            let entry = #"{"startedDateTime":"\#(text)","request":{"method":"GET","url":"https://h/a"}}"#
            let read = try HARReaderTests.read(#"{"log":{"entries":[\#(entry)]}}"#).entries[0].started
            #expect(abs(read.timeIntervalSince(expected)) < 0.001, "\(text)")
        }
    }

    /// An instant a scenario's clock cannot start at is read as unreadable: the previous entry's.
    @Test func anInstantPastWhatTheClockHoldsTakesThePreviousOne() throws {
        let entries = ["2026-01-01T00:00:00Z", "2300-01-01T00:00:00Z", "1899-12-31T23:59:59Z"].map {
            #"{"startedDateTime":"\#($0)","request":{"method":"GET","url":"https://h/a"}}"#
        }
        let read = try HARReaderTests.read(#"{"log":{"entries":[\#(entries.joined(separator: ","))]}}"#).entries
        #expect(read.map(\.started) == Array(repeating: Date(timeIntervalSince1970: 1_767_225_600), count: 3))
    }
}
