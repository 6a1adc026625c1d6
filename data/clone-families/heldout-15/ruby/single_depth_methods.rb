history = context[:conversation_history] || []
depths = {}
history.each do |rec|
  name = rec[:method_name]
  depth = rec[:depth]
  next if name.nil? || name.empty? || !depth.is_a?(Integer)

  (depths[name] ||= []) << depth
end
only_at = {}
depths.transform_values(&:uniq).each do |name, ds|
  (only_at[ds.first] ||= []) << name if ds.size == 1
end
only_at.transform_values(&:sort)
