/** A BMS difficulty table this server emits, made from a table of the seeds (its folders, in order, are the levels). */
export interface CustomBmsTable {
  urlName: string;
  playtype: string;
  tableName: string;
  symbol: string;
  description: string;
  /** The seeds' table it is made from; without it loaded the table is not offered. */
  tableID: string;
}

/** Tachi's custom BMS tables: the Sieglinde estimates, as tables BMS players can add to their clients. */
export const CUSTOM_BMS_TABLES: readonly CustomBmsTable[] = [
  {
    urlName: 'sieglindeEC',
    playtype: '7K',
    tableName: 'Sieglinde EC',
    symbol: 'sgl-',
    description: "Sieglinde's estimates of each chart's difficulty to EASY CLEAR.",
    tableID: 'bms-7K-sgl-EC',
  },
  {
    urlName: 'sieglindeHC',
    playtype: '7K',
    tableName: 'Sieglinde HC',
    symbol: 'sgl-',
    description: "Sieglinde's estimates of each chart's difficulty to HARD CLEAR.",
    tableID: 'bms-7K-sgl-HC',
  },
];

/** One chart of a BMS table's body.json (the format BMS clients read). */
export interface BmsTableEntry {
  level: string;
  md5: string;
  title?: string;
  artist?: string;
  /** On a player's table (under /users/:userID): their lamp on the chart, absent when unplayed. */
  lamp?: string;
}

/** A BMS table's header.json. */
export interface BmsTableHeader {
  name: string;
  symbol: string;
  data_url: string;
  level_order: string[];
}

/** The page BMS clients are given: it names the header.json in its bmstable meta tag. */
export function bmsTablePage(table: CustomBmsTable, headerUrl: string): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<meta name="bmstable" content="${escape(headerUrl)}">
<title>${escape(table.tableName)}</title>
</head>
<body>The ${escape(table.tableName)} BMS table. Add this page's address to your BMS client's difficulty tables.</body>
</html>
`;
}
