import ArgumentParser

struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks (build with -c release). Figures are ratios against a baseline measured in the same run.",
        subcommands: [BenchGeo.self, BenchStore.self, BenchNearest.self, BenchReplay.self, BenchImport.self]
    )
}
