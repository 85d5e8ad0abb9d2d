import Foundation
import HTTPCore
import ScenarioEngine

/// The last exchanges a watching recorder judges, oldest first, bounded by count and by bytes of
/// bodies: each as the HAR entry it is saved as and as the request the invariant checker reads.
/// Owned by one ``LiveTrafficJudge`` and touched only on its queue.
struct LiveTrafficWindow {
    /// One exchange, as recorded and as judged.
    struct Exchange {
        /// The recorder's id (ids grow by one per request recorded).
        let id: Int
        /// The entry as recorded; its response is set when it finishes.
        var entry: HARLog.Entry
        /// The request and its answer as the checker reads them (numbered when a record is made).
        var judged: RunRecord.Request
        /// Whether it finished (answered or failed).
        var finished = false
        /// Bytes of bodies it holds.
        var bytes: Int
        /// Once it finished: what it is to each judged invariant (``Invariant/concern(_:)``),
        /// decided once.
        var concerns: [Invariant.Concern]?
    }

    let capacity: Int
    let maximumBytes: Int
    /// Wall time at the record's time zero: the watch's start.
    let epoch: Date
    /// Oldest first; the live ones start at `head` (dropped ones are removed in batches).
    private var exchanges: [Exchange] = []
    private var head = 0
    private var bytes = 0
    /// The place of the next event among all events seen (the checker's `order`).
    private var order = 0

    init(capacity: Int, maximumBytes: Int, epoch: Date) {
        self.capacity = capacity
        self.maximumBytes = maximumBytes
        self.epoch = epoch
    }

    /// The exchanges kept, oldest first.
    var kept: ArraySlice<Exchange> { exchanges[head...] }

    /// The kept exchange with recorder id `id`, if it is still kept.
    func exchange(_ id: Int) -> Exchange? { index(of: id).map { exchanges[$0] } }

    /// Whether a request kept is still on its way.
    var hasUnfinished: Bool { exchanges.contains { !$0.finished } }

    /// Adds a request the app sent.
    mutating func sent(_ id: Int, _ entry: HARLog.Entry) {
        order += 1
        let request = Self.request(entry.request)
        let size = (request.body?.count ?? 0) * 2
        exchanges.append(
            Exchange(
                id: id, entry: entry, judged: RunRecord.Request(number: 0, request: request, at: offset(entry.started), order: order),
                bytes: size))
        bytes += size
        trim()
    }

    /// Sets how request `id` ended: its response, or `nil` when it failed; `invariants` are the
    /// judged ones, whose concern with it is decided now, once.
    mutating func finished(_ id: Int, _ response: HARLog.Response?, at ended: Date, invariants: [Invariant] = []) {
        order += 1
        guard let index = index(of: id) else { return }  // sent before the watch, or dropped
        exchanges[index].finished = true
        exchanges[index].entry.time = max(0, ended.timeIntervalSince(exchanges[index].entry.started) * 1000)
        exchanges[index].entry.response = response
        let at = offset(ended)
        if let response {
            var headers = HTTPFields()
            for field in response.headers { headers.append(name: field.name, value: field.value) }
            exchanges[index].judged.answer = RunRecord.Answer(
                status: response.status, headers: headers, body: response.body, at: at, order: order)
            exchanges[index].bytes += response.body.count
            bytes += response.body.count
        } else {
            exchanges[index].judged.answer = RunRecord.Answer(status: nil, fault: "networkConnectionLost", at: at, order: order)
        }
        let judged = exchanges[index].judged
        exchanges[index].concerns = invariants.map { $0.concern(judged) }
        trim()
    }

    /// The kept exchanges that can take part in breaking `invariant` (the `index`th judged one) as
    /// a run's record, numbered from 1 in the order sent, with the recorder id of each number;
    /// `nil` when none of them with recorder id `newFrom` or later is concerned, or none arms it
    /// (then it broke nothing new). Most calls end at the first pass, which reads only what was
    /// decided once per exchange.
    func record(concerning invariant: Invariant, index: Int, newFrom id: Int) -> (record: RunRecord, ids: [Int])? {
        // By place, not by copying each exchange: this runs for every rule at every request sent.
        func concern(_ place: Int) -> Invariant.Concern {
            if let concerns = exchanges[place].concerns { return index < concerns.count ? concerns[index] : .arms }
            return invariant.concern(exchanges[place].judged)
        }
        var armed = false
        var fresh = false
        for place in head..<exchanges.count {
            let concern = concern(place)
            armed = armed || concern == .arms
            fresh = fresh || (concern != .none && exchanges[place].id >= id)
        }
        guard armed, fresh else { return nil }
        var requests: [RunRecord.Request] = []
        var ids: [Int] = []
        for place in head..<exchanges.count where concern(place) != .none {
            var request = exchanges[place].judged
            request.number = requests.count + 1
            requests.append(request)
            ids.append(exchanges[place].id)
        }
        return (RunRecord(clockStart: epoch, requests: requests), ids)
    }

    /// The kept exchanges (or those `including` allows) as a run's record, numbered from 1 in the order sent.
    func record(including: (Exchange) -> Bool = { _ in true }) -> RunRecord {
        var requests: [RunRecord.Request] = []
        for exchange in kept where including(exchange) {
            var request = exchange.judged
            request.number = requests.count + 1
            requests.append(request)
        }
        return RunRecord(clockStart: epoch, requests: requests)
    }

    /// Virtual time of the record: wall time since the watch began (never before it).
    private func offset(_ date: Date) -> Duration {
        .seconds(max(0, date.timeIntervalSince(epoch)))
    }

    /// Where the kept exchange `id` is: ids grow by one per request, so the kept ones are a run of ids.
    private func index(of id: Int) -> Int? {
        guard head < exchanges.count else { return nil }
        let index = head + (id - exchanges[head].id)
        return index >= head && index < exchanges.count && exchanges[index].id == id ? index : nil
    }

    /// Drops the oldest exchanges past the bounds (the newest is always kept).
    private mutating func trim() {
        while exchanges.count - head > capacity || (bytes > maximumBytes && exchanges.count - head > 1) {
            bytes -= exchanges[head].bytes
            head += 1
        }
        // Removing in batches keeps dropping cheap without letting dropped exchanges pile up.
        if head >= 64, head * 2 >= exchanges.count {
            exchanges.removeFirst(head)
            head = 0
        }
    }

    /// A recorded request as the checker reads it: the path percent-decoded, the query as items.
    static func request(_ request: HARLog.Request) -> HTTPRequest {
        let components = URLComponents(string: request.url)
        let path = components.map { $0.percentEncodedPath.removingPercentEncoding ?? $0.percentEncodedPath } ?? request.url
        var headers = HTTPFields()
        for field in request.headers { headers.append(name: field.name, value: field.value) }
        return HTTPRequest(
            method: HTTPMethod(rawValue: request.method), path: path.isEmpty ? "/" : path,
            query: (components?.queryItems ?? []).map { .init(name: $0.name, value: $0.value) }, headers: headers,
            body: request.body.map { Data($0.utf8) })
    }
}
