import Foundation
import Testing

@testable import TraceReplay

/// The sweep's Pareto page draws the study's targets where they are: served recall at 60 %, two refresh calls an hour,
/// not a share of `oracle-os` (a target the study retired).
@Suite struct ParetoPlotTests {
    @Test func theTargetsAreDrawnAtTheirValues() throws {
        let points = [
            ParetoPlot.Point(label: "a", recall: try #require(Interval([0.5, 0.6])), refresh: try #require(Interval([1, 1.5]))),
            ParetoPlot.Point(label: "b", recall: try #require(Interval([0.7, 0.8])), refresh: try #require(Interval([3, 4]))),
        ]
        let svg = ParetoPlot.render(points, oracleOS: 0.9, oracle: 0.95)
        #expect(svg.contains("target: 60 % served") && svg.contains("budget: 2 refresh/h"))
        #expect(!svg.contains("of oracle-os"))
        // y of 60 %: the plot's 0–100 % runs from height − bottom up to top.
        let y60 = ParetoPlot.height - ParetoPlot.bottom - 0.6 * (ParetoPlot.height - ParetoPlot.top - ParetoPlot.bottom)
        #expect(svg.contains("y1=\"\(HTML.f(y60))\""))
    }
}
