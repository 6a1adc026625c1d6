# Run Ruby history programs on probe histories; started by recurscope's
# behavioural sketch (instrumentation/analysis/_behaviour.py) in its own process.
#
# Reads one JSON line per program from stdin, {"code": ..., "key": ...,
# "probes": [...]} (probes only the first time a key is sent; the process keeps
# them), and answers each with one JSON line ({"error": "unknown probes"} when
# it does not know the key): [{"ok": true, "value": ...} |
# {"ok": false, "error": "<class>"}, ...], one entry a probe. The answer is the
# `result` local when the program sets it, else the program's last value;
# Agent::Outcome.ok(x) is x. A Hash is written as {"d": [[key, value], ...]}.
#
# The process stays up for the next program. It limits its own memory and file
# size, sends the program's output nowhere, gives each run half a second and
# each program three seconds in all; the program sees inert stubs for the
# runtime's tools and for process and file calls. It is
# a narrow room, not a security boundary: the code already ran in the runtime
# that wrote the log.
require "json"
require "set"
require "time"
require "timeout"

trap("XFSZ", "IGNORE")
Process.setrlimit(:AS, 1 << 30) rescue nil
Process.setrlimit(:FSIZE, 0) rescue nil
Process.setrlimit(:CORE, 0) rescue nil
REQUESTS = $stdin.dup
ANSWERS = $stdout.dup
ANSWERS.sync = true
$stdin.reopen(File::NULL) # a program that reads its input (gets) reads nothing
$stdout.reopen(File::NULL)
$stderr.reopen(File::NULL)
RUN_SECONDS = 0.5
BUDGET_SECONDS = 3.0

class RecurscopeStub < BasicObject
  def method_missing(*_args, &_block) = self
  def respond_to_missing?(*_args) = true
  def to_s = ""
  def to_a = []
  def nil? = true
  def !() = true
end

module Agent
  module Outcome
    def self.ok(value = nil, **kw) = kw.empty? ? value : kw
    def self.error(*args, **kw) = { outcome_error: (args + kw.values) }
    def self.method_missing(*_args) = nil
  end

  def self.method_missing(*_args) = RecurscopeStub.new
end

class RecurscopeSandbox
  BLOCKED = %i[
    system exec spawn fork ` open sleep exit exit! abort require require_relative load syscall
    gets readline readlines
  ].freeze
  BLOCKED.each { |name| define_method(name) { |*_a, **_k, &_b| nil } }
  # The program's code is evaluated inside this class, so these names reach
  # stubs, not the files, processes and sockets of the machine.
  STUB = RecurscopeStub.new
  File = Dir = IO = FileUtils = Pathname = Socket = TCPSocket = Open3 = Net = STUB
  ObjectSpace = Signal = Thread = Fiber = Ractor = STUB
  # A process with a clock that stands still (after every probe): an answer
  # never depends on when it ran.
  module Process
    CLOCK_MONOTONIC = CLOCK_REALTIME = CLOCK_PROCESS_CPUTIME_ID = 0
    def self.clock_gettime(*) = 0.0
    def self.method_missing(*) = nil
    def self.respond_to_missing?(*) = true
  end
  NOW = ::Time.utc(2026, 3, 6).freeze
  class Time < ::Time
    def self.now(*) = NOW
  end

  def method_missing(*_args, &_block) = RecurscopeStub.new
  def respond_to_missing?(*_args) = true

  def run(code, context, kwargs, args)
    b = binding
    value = eval(code, b, "<program>", 1)
    b.local_variable_defined?(:result) ? b.local_variable_get(:result) : value
  end
end

def symbolize(value)
  case value
  when Hash then value.each_with_object({}) { |(k, v), h| h[k.to_sym] = symbolize(v) }
  when Array then value.map { |v| symbolize(v) }
  else value
  end
end

def plain(value, depth = 0)
  return nil if depth > 12
  case value
  when nil, true, false, Integer, String then value
  when Float then value.finite? ? value : value.to_s
  when Symbol then value.to_s
  when Hash then { "d" => value.first(500).map { |k, v| [plain(k, depth + 1), plain(v, depth + 1)] } }
  when Set then value.to_a.first(500).map { |v| plain(v, depth + 1) }.sort_by(&:inspect)
  when Array then value.first(500).map { |v| plain(v, depth + 1) }
  when Range then [plain(value.first, depth + 1), plain(value.last, depth + 1)]
  when Time then value.utc.iso8601
  when Struct then plain(value.to_h, depth + 1)
  when Rational then value.to_f
  else
    begin
      text = value.to_s
      text.is_a?(String) ? text[0, 2000] : nil
    rescue StandardError, ::NoMethodError
      nil
    end
  end
end

def run_probe(code, probe, inputs, deadline)
  return { "ok" => false, "error" => "Budget" } if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

  history = symbolize(probe["history"])
  context = symbolize(probe["context"])
  context[:conversation_history] = history
  kwargs = Hash.new(inputs["default"])
  inputs["kwargs"].each { |key, value| kwargs[key.to_sym] = value }
  args = inputs["args"].dup
  value = Timeout.timeout(RUN_SECONDS) { RecurscopeSandbox.new.run(code, context, kwargs, args) }
  { "ok" => true, "value" => plain(value) }
rescue Exception => e # rubocop:disable Lint/RescueException -- the program's failure is its answer
  raise if e.is_a?(Interrupt)
  { "ok" => false, "error" => e.class.name.to_s }
end

def telling?(result)
  result["ok"] && ![nil, [], "", 0, false, { "d" => [] }].include?(result["value"])
end

PROBES = {}
PROBES_MAX = 256

# The answers under the inputs that give the most probes a non-empty answer (the
# first on a tie). A program that never names kwargs or args answers alike under
# every input, so it is run under the first only.
def most_telling(code, probes)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + BUDGET_SECONDS
  best = []
  best_score = -1
  variants = code.match?(/\b(?:kwargs|args)\b/) ? probes[0]["inputs"].size : 1
  variants.times do |variant|
    outcome = probes.map { |probe| run_probe(code, probe, probe["inputs"][variant], deadline) }
    score = outcome.count { |r| telling?(r) }
    best, best_score = outcome, score if score > best_score
    break if score == probes.size
  end
  best
end

def answer(line)
  item = JSON.parse(line)
  key = item["key"].to_s
  if item.key?("probes")
    PROBES.clear if PROBES.size >= PROBES_MAX
    PROBES[key] = item["probes"]
  end
  probes = PROBES[key]
  return JSON.generate({ "error" => "unknown probes" }) if probes.nil?

  outcome = most_telling(item["code"].to_s, probes)
  begin
    JSON.generate(outcome)
  rescue StandardError
    JSON.generate(probes.map { { "ok" => false, "error" => "Unserializable" } })
  end
rescue JSON::ParserError, NoMethodError, TypeError
  JSON.generate({ "error" => "bad request" })
end

REQUESTS.each_line { |line| ANSWERS.write(answer(line) + "\n") }
