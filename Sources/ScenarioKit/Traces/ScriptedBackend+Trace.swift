import Foundation
import HTTPCore

extension ScriptedBackend {
    /// Every request the backend was sent, with its answer, as HAR 1.2 (not redacted): whatever
    /// route and session the stack sent it through. Requests are written as URLs under `baseURL`
    /// at the wall time `clock` stands for; each carries how many others were in flight when it
    /// came (`_inFlight`), and one given up or answered with a fault has no response.
    package func servedTrace(baseURL: URL, clock: VirtualClock) -> HARLog {
        let requests = self.requests
        let answers = deliveredAnswers
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let entries = requests.map { logged -> HARLog.Entry in
            let request = logged.request
            let harRequest = HARLog.Request(
                method: request.method.rawValue, url: root + request.target,
                headers: request.headers.map { HARLog.Field($0.name, $0.value) },
                body: request.body.map { String(decoding: $0, as: UTF8.self) }, mimeType: request.headers["Content-Type"])
            let answer = logged.number <= answers.count ? answers[logged.number - 1] : nil
            let started = clock.start.addingTimeInterval(Double(logged.arrivedAt.offset.nanoseconds) / 1e9)
            var entry = HARLog.Entry(
                started: started,
                time: max(0, Double(((answer?.at ?? logged.arrivedAt.offset) - logged.arrivedAt.offset).nanoseconds) / 1e6),
                request: harRequest, response: nil)
            // Sent while earlier requests were still unanswered by the time this one came.
            entry.inFlight = requests.prefix(logged.number - 1).count { earlier in
                guard earlier.number <= answers.count, let earlierAnswer = answers[earlier.number - 1] else { return true }
                return earlierAnswer.order > logged.order
            }
            if let answer, let status = answer.status {
                entry.response = HARLog.Response(
                    status: status, headers: answer.headers.map { HARLog.Field($0.name, $0.value) }, body: answer.body,
                    mimeType: answer.headers["Content-Type"])
            }
            return entry
        }
        return HARLog(creator: "SessionScenarios", entries: entries)
    }
}
