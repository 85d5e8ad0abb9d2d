import Foundation
import ScenarioKit

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What `URLSessionRecorder` costs an app: per request on the URLSession path (recording, then
/// recording and watching invariants), the recorder's own work on the request path measured
/// without URLSession, the judging off it, and the memory a watch keeps (`--recorder`).
enum RecorderFigures {
    /// SessionKit's rules, the file an app's debug build would watch.
    static let rules = URL(fileURLWithPath: repository).appendingPathComponent("Scenarios/invariants.json")

    /// The median of `figures`, with the lowest and the highest.
    private static func spread(_ figures: [Duration]) -> (median: Duration, low: Duration, high: Duration) {
        let sorted = figures.sorted()
        return (sorted[sorted.count / 2], sorted[0], sorted[sorted.count - 1])
    }

    /// The median of `rounds` measurements, with the lowest and the highest.
    private static func median(_ rounds: Int, _ measure: () async -> Duration) async -> (median: Duration, low: Duration, high: Duration) {
        var figures: [Duration] = []
        for _ in 0..<rounds { figures.append(await measure()) }
        figures.sort()
        return (figures[figures.count / 2], figures[0], figures[figures.count - 1])
    }

    static func print(quick: Bool) async {
        let rounds = quick ? 3 : 5
        let count = quick ? 500 : 3_000
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-bench-recorder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        // Through URLSession: a URLProtocol that answers at once stands for the network, so what
        // differs between the rows is the recorder (its protocol, its own session, its records).
        // The three in turn, round after round, so that a busy minute of the machine falls on all three.
        var rows: [[Duration]] = [[], [], []]
        for _ in 0..<rounds {
            rows[0].append(await perRequest(count, recorder: nil))
            rows[1].append(await perRequest(count, recorder: URLSessionRecorder()))
            let recorder = URLSessionRecorder()
            _ = try? recorder.watch(invariantsAt: rules, savingTracesIn: folder)
            rows[2].append(await perRequest(count, recorder: recorder))
            recorder.settleWatch()
        }
        let (plain, recorded, watched) = (Self.spread(rows[0]), Self.spread(rows[1]), Self.spread(rows[2]))
        var table = Table(
            title: "URLSessionRecorder per request (wall time, release build; median of \(rounds) rounds of \(count), the three in turn)")
        table.add("what", "µs", "low–high µs")
        for (name, value) in [
            ("URLSession + answering URLProtocol, no recorder", plain), ("the same, recorded", recorded),
            ("the same, recorded and watching invariants.json", watched),
        ] {
            table.add(
                name, format(value.median.microseconds, 2), "\(format(value.low.microseconds, 2))–\(format(value.high.microseconds, 2))")
        }
        table.print()
        Swift.print(
            "recording adds \(format((recorded.median - plain.median).microseconds, 1)) µs a request on the URLSession path (its own session's task included)"
        )
        Swift.print(
            "watching adds \(format((watched.median - recorded.median).microseconds, 1)) µs a request on top (target: well under 50)")

        // The recorder's own work on the request path, without URLSession: begin and finish.
        let calls = quick ? 20_000 : 200_000
        let bookkeeping = await median(rounds) { bookkeepingPerRequest(calls, watching: nil) }
        let judged = await median(rounds) { bookkeepingPerRequest(calls, watching: folder) }
        Swift.print(
            "the recorder's own work per request on the request path: \(format(bookkeeping.median.microseconds, 2)) µs recording, \(format(judged.median.microseconds, 2)) µs recording and watching (handing the judge two events)"
        )

        // Off the request path: the judge's queue, and what a watch keeps.
        for window in [100, 500] {
            let (perRequest, kept) = judging(quick ? 2_000 : 10_000, window: window, folder: folder)
            Swift.print(
                "judging off the request path, window of \(window) exchanges: \(format(perRequest.microseconds, 1)) µs per request (\(quick ? 2_000 : 10_000) requests, rules armed); resident memory after: \(kept)"
            )
        }
    }

    /// Wall time per `session.data(for:)` through a session of a configuration the recorder (if
    /// any) is installed in.
    private static func perRequest(_ count: Int, recorder: URLSessionRecorder?) async -> Duration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ImmediateProtocol.self]
        recorder?.install(in: configuration)
        let session = URLSession(configuration: configuration)
        guard let url = URL(string: "https://bench.example/feed") else { return .zero }
        var request = URLRequest(url: url)
        request.setValue("Bearer acc-bench-7Hq2Lm9Xw4Tb", forHTTPHeaderField: "Authorization")
        let elapsed = await ContinuousClock().measure {
            for _ in 0..<count { _ = try? await session.data(for: request) }
        }
        // Not invalidateAndCancel: cancelling a task FoundationNetworking is still finishing resumes its caller twice.
        session.finishTasksAndInvalidate()
        return elapsed / count
    }

    /// Wall time of the recorder's `begin` and `finish` for one request, as its URL protocol calls them.
    private static func bookkeepingPerRequest(_ count: Int, watching folder: URL?) -> Duration {
        let recorder = URLSessionRecorder()
        if let folder { _ = try? recorder.watch(invariantsAt: rules, savingTracesIn: folder) }
        let (request, response) = exchange(0)
        let elapsed = ContinuousClock().measure {
            for _ in 0..<count {
                let id = recorder.begin(request, at: Date())
                recorder.finish(id, response: response, at: Date())
            }
        }
        recorder.settleWatch()
        return elapsed / count
    }

    /// The judge's time per request (from the first event to the last judged) with a window of
    /// `window` exchanges, and the process's resident memory then.
    private static func judging(_ count: Int, window: Int, folder: URL) -> (Duration, String) {
        let before = residentKilobytes()
        let recorder = URLSessionRecorder(capacity: 10)
        _ = try? recorder.watch(invariantsAt: rules, savingTracesIn: folder, settings: .init(judgedExchanges: window))
        let start = Date()
        let elapsed = ContinuousClock().measure {
            for index in 0..<count {
                let (request, response) = exchange(index)
                let sent = start.addingTimeInterval(Double(index))
                let id = recorder.begin(request, at: sent)
                recorder.finish(id, response: response, at: sent.addingTimeInterval(0.05))
            }
            recorder.settleWatch()
        }
        let after = residentKilobytes()
        let passed = format(Double(count * 4) / 1024, 0)
        let grown = before.flatMap { before in
            after.map {
                "\(format(Double($0) / 1024)) MB, \(format(Double($0 - before) / 1024)) MB from before (\(passed) MB of answers went through)"
            }
        }
        return (elapsed / count, grown ?? "n/a")
    }

    /// What an app sends, keeping the rules armed without breaking them: a refresh every 50th
    /// request handing out new tokens (which the calls after it carry), else a feed call, refused
    /// with 401 every 25th (a refusal keeps the repeat rule armed).
    private static func exchange(_ index: Int) -> (HARLog.Request, HARLog.Response) {
        let round = index / 50
        if index % 50 == 49 {
            return (
                HARLog.Request(
                    method: "POST", url: "https://bench.example/auth/refresh", headers: [HARLog.Field("Content-Type", "application/json")],
                    body: #"{"refresh_token":"ref-bench-\#(round)"}"#, mimeType: "application/json"),
                HARLog.Response(
                    status: 200, headers: [HARLog.Field("Content-Type", "application/json")],
                    body: Data(#"{"data":{"access_token":"acc-bench-\#(round + 1)","refresh_token":"ref-bench-\#(round + 1)"}}"#.utf8),
                    mimeType: "application/json")
            )
        }
        // 4 KB answers: a window that kept everything would show in the resident memory.
        let text = String(repeating: "Bom dia, tudo bem? ", count: 210)
        let body = Data(#"{"success":true,"data":{"items":[{"id":"p-\#(index)","text":"\#(text)"}]}}"#.utf8)
        return (
            HARLog.Request(
                method: "GET", url: "https://bench.example/feed?page=\(index)",
                headers: [HARLog.Field("Authorization", "Bearer acc-bench-\(round)")]),
            HARLog.Response(
                status: index % 25 == 3 ? 401 : 200, headers: [HARLog.Field("Content-Type", "application/json")], body: body,
                mimeType: "application/json")
        )
    }
}
