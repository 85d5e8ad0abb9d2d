/// A run's transcript as its result keeps it: cut after the first divergence, then to its first
/// and last halves when it is still longer than the limit (before masking, so reports stay
/// small and masking stays linear in what is kept).
struct TranscriptCut {
    /// The lines kept, with a line saying what was left out at each cut.
    let lines: [String]
    /// Where each line of the whole transcript ends up among `lines` (for the steps' first lines).
    let place: @Sendable (Int) -> Int

    init(_ transcript: [String], divergence: Int?, limit: Int) {
        var lines = transcript
        var place: @Sendable (Int) -> Int = { $0 }
        if let cut = divergence, cut < lines.count {
            lines = Array(lines.prefix(cut)) + ["… \(lines.count - cut) more line(s) after the first divergence"]
            place = { min($0, cut) }
        }
        if lines.count > limit {
            let half = limit / 2
            let dropped = lines.count - 2 * half
            lines = Array(lines.prefix(half)) + ["… \(dropped) line(s) left out"] + Array(lines.suffix(half))
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
