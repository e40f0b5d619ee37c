import ArgumentParser

@main
struct OnCueBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oncue-bench",
        abstract: "OnCue's benchmarks (build with -c release). Figures are ratios against a baseline measured in the same run.",
        subcommands: [
            BenchGeo.self, BenchStore.self, BenchNearest.self, BenchReplay.self, BenchImport.self, BenchMerge.self, BenchReuse.self, BenchPhones.self,
        ]
    )
}
