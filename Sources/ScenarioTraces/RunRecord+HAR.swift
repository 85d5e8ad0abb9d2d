import Foundation
import HTTPCore
import ScenarioEngine

extension RunRecord {
    /// Every request of the run, with its answer, as HAR 1.2 (not redacted): whatever route and
    /// session the stack sent it through. Requests are written as URLs under `baseURL` at the wall
    /// time they were sent; each carries how many others were in flight when it came
    /// (`_inFlight`), and one given up or answered with a fault has no response.
    package func har(baseURL: URL = ScenarioRun.baseURL) -> HARLog {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        // Requests still unanswered, by the order of their answers (or never answered).
        var away: [(number: Int, until: Int)] = []
        let entries = requests.map { sent -> HARLog.Entry in
            let request = sent.request
            let harRequest = HARLog.Request(
                method: request.method.rawValue, url: root + request.target,
                headers: request.headers.map { HARLog.Field($0.name, $0.value) },
                body: request.body.map { String(decoding: $0, as: UTF8.self) }, mimeType: request.headers["Content-Type"])
            let answer = sent.answer
            let started = clockStart.addingTimeInterval(Double(sent.at.nanoseconds) / 1e9)
            var entry = HARLog.Entry(
                started: started, time: max(0, Double(((answer?.at ?? sent.at) - sent.at).nanoseconds) / 1e6), request: harRequest,
                response: nil)
            // Sent while earlier requests were still unanswered by the time this one came.
            away.removeAll { $0.until < sent.order }
            entry.inFlight = away.count
            away.append((sent.number, answer?.order ?? .max))
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
