import { classValues } from '../common/classes.js';

export const IIDX_DANS = classValues([
  ['KYU_7', '七級', '7th Kyu'],
  ['KYU_6', '六級', '6th Kyu'],
  ['KYU_5', '五級', '5th Kyu'],
  ['KYU_4', '四級', '4th Kyu'],
  ['KYU_3', '三級', '3rd Kyu'],
  ['KYU_2', '二級', '2nd Kyu'],
  ['KYU_1', '一級', '1st Kyu'],
  ['DAN_1', '初段', '1st Dan'],
  ['DAN_2', '二段', '2nd Dan'],
  ['DAN_3', '三段', '3rd Dan'],
  ['DAN_4', '四段', '4th Dan'],
  ['DAN_5', '五段', '5th Dan'],
  ['DAN_6', '六段', '6th Dan'],
  ['DAN_7', '七段', '7th Dan'],
  ['DAN_8', '八段', '8th Dan'],
  ['DAN_9', '九段', '9th Dan'],
  ['DAN_10', '十段', '10th Dan'],
  ['CHUUDEN', '中伝', 'Chuuden'],
  ['KAIDEN', '皆伝', 'Kaiden'],
]);
