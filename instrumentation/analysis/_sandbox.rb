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
# A probe may carry "mutations", edits of its history (_mutations.py); a request
# with "edit": true then also runs the program on each edit, under the inputs
# its answers were given with, and the answer is {"outcome": [...], "changed": ["0+1-b?...", ...]}: per
# probe, one character an edit (mark; ? when the run ran out of time).
#
# The process stays up for the next program. It limits its own memory and file
# size, sends the program's output nowhere, gives each run half a second and
# each program three seconds in all (four more for the edits); the program sees inert stubs for the
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

# A fresh copy with symbol keys: every run gets its own strings too, so a
# program that edits a text in place (downcase!, <<) changes nothing the next
# run or program sees.
def symbolize(value)
  case value
  when Hash then value.each_with_object({}) { |(k, v), h| h[k.to_sym] = symbolize(v) }
  when Array then value.map { |v| symbolize(v) }
  when String then value.dup
  else value
  end
end

# A probe's history and context, each as JSON text parsed afresh for every run
# (faster than copying the parsed objects, and shares nothing between runs).
def fresh(probe)
  texts = probe["fresh"] ||= [
    JSON.generate(probe["history"]),
    JSON.generate(probe["context"].reject { |key, _| key == "conversation_history" }),
  ]
  texts.map { |text| JSON.parse(text, symbolize_names: true) }
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

def run_probe(code, probe, inputs, deadline, ops = nil)
  return { "ok" => false, "error" => "Budget" } if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

  history, context = fresh(probe)
  begin
    edit(history, ops) if ops
  rescue IndexError, KeyError, NoMethodError, TypeError
    return { "ok" => false, "error" => "Edit" }
  end
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
MUTATION_BUDGET_SECONDS = 4.0
UNKNOWN = %w[Budget Edit Timeout::Error NoMemoryError SystemStackError].freeze

# The answers under the inputs that give the most probes a non-empty answer (the
# first on a tie), and those inputs. A program that never names kwargs or args
# answers alike under every input, so it is run under the first only.
def most_telling(code, probes)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + BUDGET_SECONDS
  best = []
  best_variant = 0
  best_score = -1
  variants = code.match?(/\b(?:kwargs|args)\b/) ? probes[0]["inputs"].size : 1
  variants.times do |variant|
    outcome = probes.map { |probe| run_probe(code, probe, probe["inputs"][variant], deadline) }
    score = outcome.count { |r| telling?(r) }
    best, best_variant, best_score = outcome, variant, score if score > best_score
    break if score == probes.size
  end
  [best, best_variant]
end

# One edit's operations (_mutations.py) applied to a fresh (symbolized) copy of
# a probe's history: del or add a record, set a field.
def edit(history, ops)
  ops.each do |op|
    case op[0]
    when "del" then history.delete_at(op[1])
    when "set"
      target = op[2][0..-2].reduce(history.fetch(op[1])) { |node, key| node.fetch(key.to_sym) }
      target[op[2][-1].to_sym] = symbolize(op[3])
    when "add" then history << symbolize(op[1])
    end # "name" changes nothing: it names the record a trigger edited (named)
  end
end

def canonical(value)
  case value
  when Hash
    if value.keys == ["d"] && value["d"].is_a?(Array)
      { "d" => value["d"].map { |item| canonical(item) }.sort_by(&:inspect) }
    else
      value.keys.sort.to_h { |k| [k, canonical(value[k])] }
    end
  when Array then value.map { |v| canonical(v) }
  else value
  end
end

DIGITS = /\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/

# The answer with every number (also inside a text) written #; the numbers, in
# order, go to numbers.
def skeleton(value, numbers)
  case value
  when true, false, nil then value.inspect
  when Integer, Float
    numbers << value.to_f
    "#"
  when String
    value.scan(DIGITS) { |d| numbers << d.to_f }
    value.gsub(DIGITS, "#")
  when Array then "[#{value.map { |v| skeleton(v, numbers) }.join(",")}]"
  when Hash then "{#{value.map { |k, v| "#{k}:#{skeleton(v, numbers)}" }.join(",")}}" # canonical sorted the keys
  else "?"
  end
end

# A run's result as its skeleton and its numbers.
def shape(result)
  numbers = []
  [skeleton(canonical(result), numbers), numbers]
end

# How an edit changed an answer (before is its shape): 0 not; only its
# numbers: + up, - down, b both; 1 more.
def mark(before, after)
  base, first = before
  second = []
  return "1" if base != skeleton(canonical(after), second)
  return "0" if first == second
  return "1" if first.size != second.size

  pairs = first.zip(second)
  up = pairs.any? { |a, b| b > a }
  down = pairs.any? { |a, b| b < a }
  up && down ? "b" : up ? "+" : "-"
end

# N for a changed answer that now names the record a trigger edited (its name op).
def named(mark, ops, base_text, after)
  names = ops.select { |op| op[0] == "name" }.map { |op| op[1].to_s }
  return mark if mark == "0" || names.empty?

  text = after.inspect
  names.any? { |n| text.include?(n) && !base_text.include?(n) } ? "N" : mark
end

# Per probe, one character an edit: how it changed the answer (mark), ? unknown,
# x it failed.
def changes(code, probes, mutations, variant, base)
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + MUTATION_BUDGET_SECONDS
  probes.zip(mutations, base).map do |probe, edits, result|
    before = shape(result) # once a probe, not once an edit
    base_text = result.inspect
    answered = result["ok"] ? true : false
    edits.map do |ops|
      result = run_probe(code, probe, probe["inputs"][variant], deadline, ops)
      if !result["ok"] && UNKNOWN.include?(result["error"]) then "?"
      elsif !result["ok"] && answered then "x" # the edit made it fail (scheme v13)
      else named(mark(before, result), ops, base_text, result)
      end
    end.join
  end
end

def answer(line)
  item = JSON.parse(line)
  key = item["key"].to_s
  if item.key?("probes")
    PROBES.clear if PROBES.size >= PROBES_MAX
    mutations = item["probes"].map { |probe| probe.delete("mutations") || [] }
    PROBES[key] = [item["probes"], mutations]
  end
  probes, mutations = PROBES[key]
  return JSON.generate({ "error" => "unknown probes" }) if probes.nil?

  code = item["code"].to_s
  outcome, variant = most_telling(code, probes)
  edited = item["edit"] && mutations.any? { |m| !m.empty? }
  changed = edited ? changes(code, probes, mutations, variant, outcome) : nil
  begin
    changed.nil? ? JSON.generate(outcome) : JSON.generate({ "outcome" => outcome, "changed" => changed })
  rescue StandardError
    JSON.generate(probes.map { { "ok" => false, "error" => "Unserializable" } })
  end
rescue JSON::ParserError, NoMethodError, TypeError
  JSON.generate({ "error" => "bad request" })
end

REQUESTS.each_line { |line| ANSWERS.write(answer(line) + "\n") }
