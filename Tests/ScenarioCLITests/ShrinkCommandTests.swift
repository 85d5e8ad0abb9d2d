import Foundation
import Testing

/// `scenario shrink` and `scenario import --shrink` through the built binary: what is written,
/// what is printed, the exit codes, and every input it refuses.
@Suite struct ShrinkCommandTests {
    /// A 403 the step expects to succeed, among calls it does not need.
    static let failing = """
        {
          "$schema": "../scenario.schema.json",
          "name": "Expects success where the call is forbidden, among other calls",
          "description": "Fails: the feed is refused with 403.",
          "given": { "session": { "accessToken": "acc-shrink-1", "refreshToken": "ref-shrink-1", "user": { "id": "u1" } } },
          "exchanges": [
            { "id": "me", "request": { "method": "GET", "path": "/users/me" }, "response": { "status": 200, "json": { "success": true, "data": { "id": "u1", "name": "Ana", "email": "ana@example.com", "active": true, "is_deleted": false } } } },
            { "id": "notes", "request": { "method": "GET", "path": "/notes" }, "response": { "status": 200, "json": { "success": true, "data": [] } }, "times": 2 },
            { "id": "feed-403", "request": { "method": "GET", "path": "/feed", "headers": { "Authorization": "Bearer acc-shrink-1" } }, "response": { "status": 403, "json": { "success": false, "error_code": "USER_DELETED" } } }
          ],
          "steps": [
            { "do": "request", "with": { "path": "/notes" } },
            { "do": "loadUser" },
            { "advance": "30s" },
            { "do": "request", "with": { "path": "/notes" } },
            { "do": "request", "with": { "path": "/feed" }, "expect": { "ok": true } }
          ],
          "expect": { "requests": { "total": 4 } }
        }
        """

    @Test func itWritesTheSmallestScenarioThatFailsTheSameWay() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.json", Self.failing)
        let shrink = try ScenarioBinary.run(["shrink", "in.json", "-o", "min.json", "--jobs", "2"], in: folder.url)
        #expect(shrink.status == 0, "\(shrink.output)")
        let lines = shrink.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("in.json: 5 steps, 3 exchanges -> 1 step, 1 exchange in ") == true, "\(shrink.stdout)")
        #expect(
            lines.first?.hasSuffix("; kept: outcome of request: failed with accountDeleted") == true)
        #expect(lines.last == "Wrote min.json")
        #expect(!shrink.output.contains("\r"), "no progress line off a terminal")
        #expect(!shrink.output.contains("acc-shrink-1"), "secrets stay masked")
        let lint = try ScenarioBinary.run(["lint", "min.json"], in: folder.url)
        #expect(lint.status == 0, "\(lint.output)")
        let run = try ScenarioBinary.run(["run", "min.json", "--no-reports"], in: folder.url)
        #expect(run.status == 1)
        #expect(run.output.contains("expected the action to succeed, but it failed with accountDeleted"), "\(run.output)")
        let written = try folder.read("min.json")
        #expect(written.hasPrefix("{\n  \"$schema\": \"../scenario.schema.json\",\n  \"name\": \"Expects success"))

        // One candidate at a time in this process gives the same file.
        let alone = try ScenarioBinary.run(["shrink", "in.json", "-o", "alone.json", "--jobs", "1"], in: folder.url)
        #expect(alone.status == 0, "\(alone.output)")
        #expect(try folder.read("alone.json") == written)
    }

    @Test func whatItCannotShrinkIsSaidWithTheExitCodeAndNothingIsWritten() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.json", Self.failing)
        try folder.write(
            "passes.json",
            #"{ "name": "p", "description": "d", "given": { "session": { "accessToken": "a", "user": { "id": "u" } } }, "exchanges": [{ "request": { "path": "/x" }, "response": { "status": 200 } }], "steps": [{ "do": "request", "with": { "path": "/x" } }] }"#
        )
        try folder.write("broken.json", #"{ "name": "b", "description": "d", "steps": [{ "do": "requst" }] }"#)
        let cases: [(arguments: [String], status: Int32, says: String)] = [
            (["shrink", "passes.json", "-o", "out.json"], 1, "passes.json passes: there is no failure to shrink; nothing written"),
            (["shrink", "broken.json", "-o", "out.json"], 2, "broken.json:1:"),
            (["shrink", "in.json", "-o", "out.json", "--same", "state.auth"], 2, "--same state.auth names no part of the failure"),
            (["shrink", "in.json", "-o", "out.json", "--same", "invariants"], 2, "it breaks no invariant"),
            (["shrink", "passes.json", "-o", "out.json", "--replay-schedule", "1:2"], 2, "that schedule no longer fails it"),
            (["shrink", ".", "-o", "out.json"], 2, "takes one scenario file"),
            (["shrink", "missing.json", "-o", "out.json"], 2, "no such file or folder: missing.json"),
            (["shrink", "in.json"], 64, "needs -o MIN.json"),
            (["shrink", "in.json", "-o", "out.json", "--time-limit", "5"], 64, "invalid value '5' for --time-limit"),
            (["shrink", "in.json", "-o", "out.json", "--replay-schedule", "7"], 64, "invalid value '7' for --replay-schedule"),
            (["shrink", "in.json", "-o", "out.json", "--jobs", "0"], 64, "invalid value '0' for --jobs"),
        ]
        for (arguments, status, says) in cases {
            let run = try ScenarioBinary.run(arguments, in: folder.url)
            #expect(run.status == status, "\(arguments): \(run.output)")
            #expect(run.output.contains(says), "\(arguments): \(run.output)")
            #expect(!folder.exists("out.json"), "\(arguments) wrote a file")
        }
    }

    /// A time limit that is up before the search begins still writes the best found so far:
    /// the input itself, checked like any result.
    @Test func theTimeLimitWritesTheBestFoundSoFar() throws {
        let folder = try TemporaryFolder()
        try folder.write("in.json", Self.failing)
        let run = try ScenarioBinary.run(["shrink", "in.json", "-o", "min.json", "--time-limit", "1ms", "--jobs", "1"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.stdout.contains("Stopped before the passes were done (time limit or Ctrl-C): this is the best found so far."))
        let lint = try ScenarioBinary.run(["lint", "min.json"], in: folder.url)
        #expect(lint.status == 0, "\(lint.output)")
    }

    /// `import --shrink`: a draft that breaks an invariant of its folder is shrunk beside it.
    @Test func importShrinksADraftThatBreaksInvariants() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "invariants.json",
            #"{ "invariants": [{ "id": "one-feed-at-a-time", "description": "One GET /feed away at a time.", "check": "maxInFlight", "requests": { "method": "GET", "path": "/feed" }, "max": 1 }] }"#
        )
        let trace = TraceCommandTests.traces.appendingPathComponent("mitmproxy/concurrent-403s.har").path
        let run = try ScenarioBinary.run(["import", trace, "-o", "burst.json", "--shrink"], in: folder.url)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.stdout.contains("The draft breaks invariants; shrunk: burst.json: 2 steps, 1 exchange -> 1 step"), "\(run.stdout)")
        #expect(run.stdout.contains("Wrote burst-shrunk.json"))
        let shrunk = try ScenarioBinary.run(["run", "burst-shrunk.json", "--no-reports"], in: folder.url)
        #expect(shrunk.status == 1)
        #expect(shrunk.output.contains("invariant one-feed-at-a-time"), "\(shrunk.output)")

        // Without an invariant governing it, the draft is left as it is, and the command says how
        // to add one.
        try FileManager.default.removeItem(atPath: folder.path("invariants.json"))
        let plain = try ScenarioBinary.run(["import", trace, "-o", "again.json", "--shrink"], in: folder.url)
        #expect(plain.status == 0, "\(plain.output)")
        #expect(plain.stdout.contains("Not shrunk: no invariants.json governs again.json"), "\(plain.stdout)")
        #expect(!folder.exists("again-shrunk.json"))
        let stdout = try ScenarioBinary.run(["import", trace, "--shrink"], in: folder.url)
        #expect(stdout.status == 64)
        #expect(stdout.stderr.contains("needs -o FILE with --shrink"), "\(stdout.stderr)")
    }
}
