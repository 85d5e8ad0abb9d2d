/// What of a transcript a result keeps: what comes after the first divergence is cut, then the
/// first and last halves when it is still longer than the limit, with a note at each cut. Cut
/// before masking, so reports stay small and masking stays linear in what is kept.
struct TranscriptCut<Line> {
    /// The lines kept, with a note saying what was left out at each cut.
    let lines: [Line]
    /// Where each line of the whole transcript ends up among `lines` (for the steps' first lines).
    let place: @Sendable (Int) -> Int

    init(_ transcript: [Line], divergence: Int?, limit: Int, note: (String) -> Line) {
        var lines = transcript
        var place: @Sendable (Int) -> Int = { $0 }
        if let cut = divergence, cut < lines.count {
            lines = Array(lines.prefix(cut)) + [note("… \(lines.count - cut) more line(s) after the first divergence")]
            place = { min($0, cut) }
        }
        if lines.count > limit {
            let half = limit / 2
            let dropped = lines.count - 2 * half
            lines = Array(lines.prefix(half)) + [note("… \(dropped) line(s) left out")] + Array(lines.suffix(half))
            let before = place
            place = { raw in
                let line = before(raw)
                return line < half ? line : (line < half + dropped ? half : line - dropped + 1)
            }
        }
        self.lines = lines
        self.place = place
    }
}

extension Transcript {
    /// The most lines a result keeps: the first and last halves.
    static let shownLimit = 400
    /// The most characters of a line a result keeps, cut after masking.
    static let lineLimit = 400

    /// What a result shows of `events`: masked by `redactor`, escaped, cut after the event
    /// `divergence` (an index into `events`) and to `limit` lines; `place` maps an index into
    /// `events` (a step's first event) to the first line shown at or after it.
    static func shown(
        _ record: RunRecord, redactor: SecretRedactor, divergence: Int?, limit: Int = shownLimit
    ) -> (entries: [TranscriptEntry], place: @Sendable (Int) -> Int) {
        // Which events have a line (all but the 404 an unmatched request gets), and the line
        // count before each: what the steps' and the divergence's places become.
        let events = record.events
        var shownEvents: [Int] = []
        var linesBefore: [Int] = []
        linesBefore.reserveCapacity(events.count + 1)
        for (index, event) in events.enumerated() {
            linesBefore.append(shownEvents.count)
            if case .answered = event.kind, event.exchange == nil { continue }
            shownEvents.append(index)
        }
        linesBefore.append(shownEvents.count)
        let lineOf: @Sendable (Int) -> Int = { [linesBefore] index in linesBefore[max(0, min(index, linesBefore.count - 1))] }
        // Cut first, then render and mask only what is kept.
        enum Kept {
            case event(Int)
            case note(String)
        }
        let cut = TranscriptCut(shownEvents.map(Kept.event), divergence: divergence.map(lineOf), limit: limit, note: Kept.note)
        var entries: [TranscriptEntry] = []
        for kept in cut.lines {
            switch kept {
            case .note(let note):
                entries.append(TranscriptEntry(kind: .note, number: nil, time: "", text: note))
            case .event(let index):
                let event = events[index]
                guard let (kind, number, text) = entry(event, in: record, masking: redactor) else { continue }
                let masked = TerminalSafe.escape(redactor.redact(text))
                entries.append(
                    TranscriptEntry(
                        kind: kind, number: number, time: VirtualClock.Instant.format(event.at),
                        text: masked.count > lineLimit ? String(masked.prefix(lineLimit)) + "…" : masked))
            }
        }
        let place = cut.place
        return (entries, { place(lineOf($0)) })
    }
}
