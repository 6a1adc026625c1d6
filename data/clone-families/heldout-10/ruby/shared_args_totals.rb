history = context[:conversation_history] || []
with_args = 0
methods_for = history.each_with_object({}) do |step, acc|
  list = step[:args] || []
  next if list.empty?
  with_args += 1
  name = step[:method_name]
  next if name.to_s.empty?
  acc[list] = (acc[list] || []) | [name]
end
shared = methods_for.reject { |_, names| names.size < 2 }
{ shared_args: shared.transform_values(&:sort), calls_with_args: with_args, distinct_arg_lists: methods_for.size }
