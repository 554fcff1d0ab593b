'use client';

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

export type ChartDay = { date: string; impressions: number; views: number; engagements: number };

const LINES = [
  { key: 'impressions', name: 'Impressions', color: '#4f46e5' },
  { key: 'views', name: 'Views', color: '#0e7490' },
  { key: 'engagements', name: 'Engagements', color: '#c2410c' },
] as const;

/**
 * The daily line chart. It is a picture for sighted readers: `summary` names what it shows for
 * screen readers, and the page carries the same figures as a table.
 */
export function DailyChart({ days, summary }: { days: ChartDay[]; summary: string }) {
  return (
    <div className="chart" role="img" aria-label={summary}>
      <ResponsiveContainer width="100%" height={280}>
        {/* No keyboard layer: the table beside the chart is the accessible way through it. */}
        <LineChart data={days} accessibilityLayer={false} margin={{ left: -12, right: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="date" tickFormatter={(d: string) => d.slice(5)} minTickGap={16} />
          <YAxis allowDecimals={false} />
          <Tooltip />
          <Legend />
          {LINES.map((line) => (
            <Line
              key={line.key}
              type="monotone"
              dataKey={line.key}
              name={line.name}
              stroke={line.color}
              strokeWidth={2}
              dot={days.length <= 31}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
