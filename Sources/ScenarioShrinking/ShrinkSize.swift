import ScenarioEngine

/// How big a scenario is, as the shrinker reports it.
package struct ShrinkSize: Sendable, Hashable, CustomStringConvertible {
    package var steps: Int
    package var exchanges: Int

    package init(steps: Int, exchanges: Int) {
        self.steps = steps
        self.exchanges = exchanges
    }

    /// `135 steps, 15 exchanges`.
    package var description: String {
        "\(steps) step\(steps == 1 ? "" : "s"), \(exchanges) exchange\(exchanges == 1 ? "" : "s")"
    }
}

extension ScenarioDocument {
    /// How big it is, as the shrinker reports it.
    var size: ShrinkSize { ShrinkSize(steps: steps.count, exchanges: exchanges.count) }
}
